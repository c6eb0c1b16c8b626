import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { readOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

const shots = process.env.SCREENSHOT_DIR ?? '/tmp/shots';

/** A guest list with a plus-one: a name and no email. */
const guestList = ['name,email', 'Anna Host,anna.host@example.test', 'Anna Host +1,', 'Ben Guest,ben.guest@example.test'].join(
  '\n',
);

/** Waits for the page's transitions (a dialog fading in) to end, so a screenshot shows what a person sees. */
const settled = (page: Page) =>
  page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null))));

describe('a new organizer imports guests with a plus-one, is told what is left to email them, is stopped at the limit, and staff are refused the page', () => {
  // Five guest emails an hour for an organization that has sold nothing, so the journey reaches the limit.
  const journey = useJourney({ env: { GUEST_MAIL_NEW_PER_HOUR: '5' }, context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let staff: Page;
  let eventId = '';
  let organizationId = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    staff = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('imports a guest list whose plus-one has a name and no email, emailing the others their tickets', async () => {
    await signUpAndVerify(organizer, { name: 'Nora Newcomer', email: 'nora@example.test' });
    const call = callAs(organizer);
    ({ organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Fresh Start' }));
    ({ eventId } = await call<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Opening Night',
      venue: 'The Old Mill',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 50,
    }));
    await call('events.addTicketType', { eventId, name: 'Standing', capacity: 50, maxPerOrder: 4, price: 0 });
    await call('events.publish', { eventId });

    await organizer.goto(`/manage/events/${eventId}/import`);
    await organizer.getByRole('heading', { name: 'Import a guest list', level: 1 }).waitFor();
    await organizer
      .locator('input[type=file]')
      .setInputFiles({ name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from(guestList) });
    await organizer.getByRole('heading', { name: '2. Match the columns' }).waitFor();
    await organizer.getByRole('button', { name: 'Check 3 rows' }).click();
    await organizer.getByText('3 rows are ready to import (3 tickets)').waitFor();
    await organizer.getByRole('checkbox', { name: 'Email each new guest their tickets' }).check();
    await organizer.getByRole('button', { name: 'Import 3 guests' }).click();
    await organizer.getByText('3 guests were imported (3 tickets); none had been imported before.').waitFor();

    await expect
      .poll(async () => (await readOutbox(organizer)).filter((message) => message.to.endsWith('@example.test')).length)
      .toBeGreaterThanOrEqual(3);
    const mailed = (await readOutbox(organizer)).map((message) => message.to);
    expect(mailed).toContain('anna.host@example.test');
    expect(mailed).toContain('ben.guest@example.test');
    expect(mailed.filter((to) => !to.includes('@'))).toEqual([]);
  });

  it('shows on the messages page how many more guests may be emailed, and refuses a message beyond it in a sentence', async () => {
    // Two more guests, typed in without their tickets emailed: a message would reach them.
    await callAs(organizer)('imports.apply', {
      eventId,
      rows: [
        { line: 2, name: 'Carl Cold', email: 'carl.cold@example.test' },
        { line: 3, name: 'Dora Cold', email: 'dora.cold@example.test' },
      ],
    });
    await organizer.goto(`/manage/events/${eventId}/messages`);
    await organizer.getByRole('heading', { name: /Messages to attendees/, level: 1 }).waitFor();
    const left = organizer.getByTestId('guest-mail-left');
    await left.getByText(/^You can email 3 more guests who have not bought a ticket for now\. More can go from /).waitFor();
    await left.getByText(/The limit rises once your organization has sold a ticket\.$/).waitFor();

    await organizer.getByRole('textbox', { name: 'Subject' }).fill('Free drinks');
    await organizer.getByRole('textbox', { name: 'Message' }).fill('Come early: the first round is on us.');
    await organizer.getByRole('button', { name: 'Preview' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Check before sending' });
    await dialog.getByText('Goes to 5 people.').waitFor();
    await dialog.getByText(/^1 of them has no email address/).waitFor();
    await dialog.getByText(/^4 of them have not bought a ticket \(guests from a list\)/).waitFor();
    await dialog.getByRole('button', { name: 'Send to 5 people' }).click();
    await dialog
      .getByRole('alert')
      .getByText(
        /^This would email 4 guests who have not bought a ticket, but your account can email only 3 more for now\. More can go from .+\.$/,
      )
      .waitFor();
    await settled(organizer);
    await organizer.screenshot({ path: `${shots}/guest-mail-refused-1280.png` });
    await organizer.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await organizer.getByText('No messages yet').waitFor();
    await left.getByText(/^You can email 3 more guests/).waitFor();
    expect((await readOutbox(organizer)).filter((message) => message.subject === 'Free drinks')).toEqual([]);
    await organizer.screenshot({ path: `${shots}/guest-mail-left-1280.png`, fullPage: true });
    await organizer.setViewportSize({ width: 390, height: 844 });
    await organizer.screenshot({ path: `${shots}/guest-mail-left-390.png`, fullPage: true });
    await organizer.setViewportSize({ width: 1280, height: 900 });
  });

  it('refuses a guest list whose emails do not fit in what is left, importing none of it', async () => {
    const more = ['name,email', ...['eve', 'finn', 'gus', 'hal'].map((name) => `${name},${name}.more@example.test`)].join('\n');
    await organizer.goto(`/manage/events/${eventId}/import`);
    await organizer
      .locator('input[type=file]')
      .setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(more) });
    await organizer.getByRole('button', { name: 'Check 4 rows' }).click();
    await organizer.getByRole('checkbox', { name: 'Email each new guest their tickets' }).check();
    await organizer.getByRole('button', { name: 'Import 4 guests' }).click();
    await organizer.getByText(/^No new guests were imported/).waitFor();
    await organizer
      .getByRole('alert')
      .getByText(
        /^The import stopped: This would email 4 guests who have not bought a ticket, but your account can email only 3 more for now\. More can go from /,
      )
      .waitFor();
    await organizer.screenshot({ path: `${shots}/guest-mail-import-refused-1280.png`, fullPage: true });
  });

  it('refuses door staff who open the messages page by its address, at once and without the form', async () => {
    const { invitationId } = await callAs(organizer)<{ invitationId: string }>('orgs.invite', {
      organizationId,
      email: 'dana.door@example.test',
      role: 'staff',
    });
    await signUpAndVerify(staff, { name: 'Dana Door', email: 'dana.door@example.test' });
    await callAs(staff)('orgs.acceptInvitation', { invitationId });

    await staff.goto(`/manage/events/${eventId}/messages`);
    await staff.getByRole('alert').getByText('Your role does not allow this.').waitFor();
    expect(await staff.getByRole('textbox', { name: 'Subject' }).count()).toBe(0);
    expect(await staff.getByRole('button', { name: 'Preview' }).count()).toBe(0);
    expect(await staff.getByRole('status', { name: 'Loading' }).count()).toBe(0);
    await staff.screenshot({ path: `${shots}/messages-staff-390.png`, fullPage: true });
  });
});
