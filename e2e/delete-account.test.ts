import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { useJourney } from './support/journey';
import { defaultPassword, signUpAndVerify, submitSignIn } from './support/sign-in';

describe('a buyer deletes their account and the organizer keeps an anonymous order', () => {
  const journey = useJourney();
  let organizer: Page;
  let buyer: Page;

  beforeAll(async () => {
    organizer = await journey.newPage();
    buyer = await journey.newPage();
  });

  it('lets an organizer publish a free event and a buyer take a ticket', async () => {
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga@example.test' });
    await organizer.getByRole('link', { name: 'Organize' }).first().click();
    await organizer.getByLabel('Organization name').fill('Harbour Nights');
    await organizer.getByRole('button', { name: 'Create organization' }).click();
    await organizer.getByRole('heading', { name: 'Events of Harbour Nights' }).waitFor();
    await organizer.getByLabel('Title').fill('Quiet Strings');
    await organizer.getByLabel('Venue').fill('Harbour Hall');
    const zone = organizer.getByRole('combobox', { name: 'Time zone of the event' });
    await zone.fill('Europe/Berlin');
    await organizer.getByRole('option', { name: 'Europe/Berlin' }).click();
    await organizer.getByLabel('Starts').fill('2030-06-14T20:00');
    await organizer.getByLabel('Ends').fill('2030-06-14T23:30');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('5');
    await organizer.getByRole('button', { name: 'Create event' }).click();
    await organizer.getByRole('heading', { name: 'Quiet Strings' }).waitFor();
    await organizer.getByRole('textbox', { name: 'Name', exact: true }).fill('Standing');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('5');
    await organizer.getByLabel('Limit per order').fill('2');
    await organizer.getByRole('button', { name: 'Add ticket type' }).click();
    await organizer.getByRole('cell', { name: 'Standing', exact: true }).waitFor();
    await organizer.getByRole('button', { name: 'Publish' }).click();
    const eventPath = new URL(
      (await organizer.getByRole('link', { name: 'View public page' }).getAttribute('href'))!,
      journey.url,
    ).pathname;

    await signUpAndVerify(buyer, { name: 'Dana Departing', email: 'dana@example.test' });
    await buyer.goto(eventPath);
    await buyer.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('1');
    await buyer.getByRole('button', { name: 'Get 1 ticket' }).click();
    await buyer.getByText('Your tickets are ready').waitFor();
    await organizer.getByRole('cell', { name: /Dana Departing/ }).waitFor();
  });

  it('deletes the account from /account after the password, which signs the buyer out for good', async () => {
    await buyer.goto('/account');
    await buyer.getByRole('heading', { name: 'Sign-in methods' }).waitFor();
    await buyer.getByText('Email and password').waitFor();
    await buyer.getByRole('button', { name: 'Delete my account' }).click();
    await buyer.getByRole('dialog', { name: 'Delete your account?' }).waitFor();
    await buyer.getByLabel('Enter your password to confirm').fill(defaultPassword);
    await buyer.getByRole('button', { name: 'Delete account for good' }).click();

    await buyer.getByRole('link', { name: 'Sign in' }).first().waitFor();
    await submitSignIn(buyer, { email: 'dana@example.test' });
    await buyer.getByText('That email and password do not match.').waitFor();
  });

  it("shows the organizer's order as from a deleted account, without the buyer's name", async () => {
    await organizer.reload();
    await organizer
      .getByRole('cell', { name: /Deleted account/ })
      .first()
      .waitFor();
    await organizer.getByText('Dana Departing').waitFor({ state: 'detached' });
  });
});
