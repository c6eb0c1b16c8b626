import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('an owner builds a door team by invitation, and roles change live', () => {
  const journey = useJourney();
  let owner: Page;
  let invitee: Page;
  let organizationPath = '';

  beforeAll(async () => {
    owner = await journey.newPage();
    invitee = await journey.newPage();
  });

  it('lets the owner invite an email as door staff from the members page', async () => {
    await signUpAndVerify(owner, { name: 'Olivia Owner', email: 'olivia@example.test' });
    await owner.getByRole('link', { name: 'Organize' }).first().click();
    await owner.getByLabel('Organization name').fill('Night Owls');
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await owner.getByRole('heading', { name: 'Events of Night Owls' }).waitFor();
    organizationPath = new URL(owner.url()).pathname;

    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByRole('heading', { name: 'Members of Night Owls' }).waitFor();
    const members = owner.getByRole('table', { name: 'Members' });
    await members
      .getByRole('row', { name: /Olivia Owner/ })
      .getByText('Owner', { exact: true })
      .waitFor();

    await owner.getByLabel('Email of the person to invite').fill('dana@example.test');
    await expect(owner.getByRole('combobox', { name: 'Role', exact: true }).inputValue()).resolves.toBe('Door staff');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('Invitation sent.').waitFor();
    await owner.getByRole('button', { name: 'Revoke the invitation for dana@example.test' }).waitFor();
    expect(await owner.title()).toBe('Members of Night Owls · Admit');
    await screenshots(owner, 'members');
  });

  it('gives the invitee’s address the whole width of a phone', async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    const email = owner.getByLabel('Email of the person to invite');
    expect((await email.boundingBox())!.width).toBeGreaterThan(280);
    await owner.setViewportSize({ width: 1280, height: 900 });
  });

  it('lets the invitee sign up with that email, see the invitation and accept it as door staff', async () => {
    await signUpAndVerify(invitee, { name: 'Dana Door', email: 'dana@example.test' });
    await invitee.goto('/manage');
    const invitations = invitee.getByRole('region', { name: 'Invitations for you' });
    await invitations.getByText('Olivia Owner invited you to join Night Owls as door staff.').waitFor();
    await invitations.getByRole('button', { name: 'Accept' }).click();

    const card = invitee.getByRole('listitem').filter({ has: invitee.getByRole('link', { name: 'Night Owls' }) });
    await card.getByText('Door staff', { exact: true }).waitFor();
    await expect.poll(() => invitee.getByRole('region', { name: 'Invitations for you' }).count()).toBe(0);

    // The owner's pending list empties and the new member appears, live.
    await expect.poll(() => owner.getByRole('button', { name: /Revoke the invitation/ }).count()).toBe(0);
    await owner.getByRole('combobox', { name: 'Role of Dana Door' }).waitFor();
  });

  it('shows door staff the events of the organization without the form to create one', async () => {
    await invitee.getByRole('link', { name: 'Night Owls' }).click();
    await invitee.getByRole('heading', { name: 'Events of Night Owls' }).waitFor();
    expect(new URL(invitee.url()).pathname).toBe(organizationPath);
    await invitee.getByText('No events yet').waitFor();
    expect(await invitee.getByRole('button', { name: 'Create event' }).count()).toBe(0);

    // Door staff see the team but none of the controls to change it.
    await invitee.getByRole('link', { name: 'Members' }).click();
    await invitee.getByRole('heading', { name: 'Members of Night Owls' }).waitFor();
    await invitee.getByRole('row', { name: /Olivia Owner/ }).waitFor();
    expect(await invitee.getByText('olivia@example.test').count()).toBe(0);
    expect(await invitee.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await invitee.getByRole('button', { name: 'Make owner' }).count()).toBe(0);
    await invitee.getByRole('button', { name: 'Leave the organization' }).waitFor();
  });

  it('gives the new member the admin controls as soon as the owner makes them an admin', async () => {
    await invitee.getByRole('link', { name: 'Night Owls' }).click();
    await invitee.getByRole('heading', { name: 'Events of Night Owls' }).waitFor();

    await owner.getByRole('combobox', { name: 'Role of Dana Door' }).click();
    await owner.getByRole('option', { name: 'Admin' }).click();

    // No reload on the invitee's side: the live channel brings the new role.
    await invitee.getByRole('button', { name: 'Create event' }).waitFor();
    await invitee.getByRole('link', { name: 'Organizations' }).click();
    const card = invitee.getByRole('listitem').filter({ has: invitee.getByRole('link', { name: 'Night Owls' }) });
    await card.getByText('Admin', { exact: true }).waitFor();
  });
});
