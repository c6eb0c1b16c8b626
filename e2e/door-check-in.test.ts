import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { fakeCameraArgs, writeQrVideo } from './support/fake-camera';
import { useJourney } from './support/journey';
import { signIn, signUpAndVerify } from './support/sign-in';

const olivia = { name: 'Olivia Organizer', email: 'olivia@example.test' };

describe('two doors check people in, with and without a network', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let doorOne: Page;
  let doorTwo: Page;
  let eventId = '';
  let ticketTypeId = '';
  let codes: string[] = [];

  const verdict = (page: Page) => page.getByTestId('scan-verdict');
  async function scan(page: Page, code: string) {
    const field = page.getByRole('textbox', { name: 'Ticket code or name' });
    await field.fill(code);
    await field.press('Enter');
  }
  async function openScanner(page: Page, device: string) {
    await page.goto(`/manage/events/${eventId}/scan`);
    await page.getByRole('textbox', { name: 'Scanner name' }).fill(device);
    await page.getByRole('button', { name: 'Start scanning' }).click();
    await page.getByRole('heading', { name: 'Check-in' }).waitFor();
  }
  /** The codes of the organizer's own tickets, read from My tickets once all `count` are there. */
  async function myCodes(page: Page, count: number) {
    await page.goto('/tickets');
    await page.getByRole('heading', { name: 'My tickets' }).waitFor();
    await page
      .getByRole('code')
      .nth(count - 1)
      .waitFor();
    return page.getByRole('code').allTextContents();
  }

  beforeAll(async () => {
    doorOne = await journey.newPage();
    await signUpAndVerify(doorOne, olivia);
    const call = callAs(doorOne);
    const { organizationId } = await call('orgs.create', { name: 'Door Tests' });
    ({ eventId } = await call('events.create', {
      organizationId,
      title: 'Warehouse Night',
      venue: 'Warehouse 7',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-04-04T22:00',
      endsAtLocal: '2030-04-05T04:00',
      capacity: 100,
    }));
    ({ ticketTypeId } = await call('events.addTicketType', { eventId, name: 'Entry', capacity: 100, maxPerOrder: 10 }));
    await call('events.publish', { eventId });
    await call('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 4 }] });
    codes = await myCodes(doorOne, 4);
    expect(codes).toHaveLength(4);
    // The last ticket is for a friend: the one person of that name on the list.
    const last = doorOne.getByRole('listitem', { name: 'Entry ticket for Warehouse Night' }).nth(3);
    await last.getByRole('button', { name: 'Change the name on this Entry ticket' }).click();
    await last.getByRole('textbox', { name: 'Name on this Entry ticket' }).fill('Zoe Quist');
    await last.getByRole('button', { name: 'Save name' }).click();
    await last.getByText('For Zoe Quist').waitFor();

    // The second door is another phone, signed in as the same organizer.
    doorTwo = await journey.newPage();
    await signIn(doorTwo, olivia);
  });

  it('admits a ticket at one door and shows it as already checked in at the other, with the counts live on both', async () => {
    await openScanner(doorOne, 'Door 1');
    await openScanner(doorTwo, 'Door 2');
    await doorOne.getByText('0 of 4 checked in').waitFor();

    await scan(doorOne, codes[0]!);
    await expect.poll(() => verdict(doorOne).getAttribute('data-result')).toBe('accepted');
    await verdict(doorOne).getByText('Olivia Organizer').waitFor();
    await doorTwo.getByText('1 of 4 checked in').waitFor();

    await scan(doorTwo, codes[0]!);
    await expect.poll(() => verdict(doorTwo).getAttribute('data-result')).toBe('duplicate');
    await verdict(doorTwo)
      .getByText(/^at \d{1,2}:\d\d\s[AP]M at Door 1$/)
      .waitFor();
    await screenshots(doorTwo, 'scanner-duplicate');
  });

  it('finds a person by name and checks them in from the list', async () => {
    const field = doorOne.getByRole('textbox', { name: 'Ticket code or name' });
    // A new search takes the last verdict away: it is not about the person being looked for.
    await field.fill('zzxq');
    await verdict(doorOne).waitFor({ state: 'detached' });
    // Enter on a name that matches nobody says so, and is no scan of an unknown ticket.
    await field.press('Enter');
    await doorOne.getByRole('status').getByText('No one found for “zzxq”.').waitFor();
    expect(await verdict(doorOne).count()).toBe(0);
    expect(await field.inputValue()).toBe('zzxq');

    // Enter on a name with one match shows that person to pick, and lets nobody in.
    await field.fill('quist');
    await field.press('Enter');
    const found = doorOne.getByRole('table', { name: 'People found' });
    await found.getByRole('button', { name: 'Check in Zoe Quist' }).waitFor();
    await doorOne.getByRole('status').getByText('1 person found for “quist”: choose whom to check in.').waitFor();
    expect(await verdict(doorOne).count()).toBe(0);
    expect(await doorOne.getByTestId('checked-in-total').textContent()).toBe('1 of 4 checked in');

    await field.fill('organizer');
    await field.press('Enter');
    await doorOne.getByRole('status').getByText('3 people found for “organizer”: choose whom to check in.').waitFor();
    expect(await doorOne.getByText(/^No one found/).count()).toBe(0);
    expect(await verdict(doorOne).count()).toBe(0);
    await screenshots(doorOne, 'scanner-people-found');
    await found.getByRole('button', { name: 'Check in Olivia Organizer' }).first().click();
    await expect.poll(() => verdict(doorOne).getAttribute('data-result')).toBe('accepted');
    await doorTwo.getByText('2 of 4 checked in').waitFor();
    await expect.poll(() => field.inputValue()).toBe('');
  });

  it('finds the person of a whole code typed by hand once the typing pauses', async () => {
    const field = doorOne.getByRole('textbox', { name: 'Ticket code or name' });
    await field.fill(codes[2]!);
    const found = doorOne.getByRole('table', { name: 'People found' });
    await found.waitFor();
    await expect.poll(() => found.getByRole('row').count()).toBe(1);
    await found.getByText('Olivia Organizer').waitFor();
    expect(await verdict(doorOne).count()).toBe(0);
    // Given up, the search gives the last verdict back, with its Undo.
    await field.fill('');
    await found.waitFor({ state: 'detached' });
    await expect.poll(() => verdict(doorOne).getAttribute('data-result')).toBe('accepted');
  });

  it('takes an admission back with Undo', async () => {
    await doorOne.getByRole('button', { name: 'Undo admission' }).click();
    await expect.poll(() => verdict(doorOne).getAttribute('data-result')).toBe('undone');
    await verdict(doorOne).getByText('Not admitted: the ticket can be scanned again.').waitFor();
    await screenshots(doorOne, 'scanner-undone');
    await doorTwo.getByText('1 of 4 checked in').waitFor();
  });

  it('scans with no network at both doors, keeps the queue across a reload, and after syncing one door admitted and the other shows the duplicate', async () => {
    const code = codes[3]!;
    await doorOne.context().setOffline(true);
    await doorTwo.context().setOffline(true);

    await scan(doorOne, code);
    await scan(doorTwo, code);
    // Each door decides at once from its saved list: both let the person in.
    await expect.poll(() => verdict(doorOne).getAttribute('data-result')).toBe('accepted');
    await expect.poll(() => verdict(doorTwo).getAttribute('data-result')).toBe('accepted');
    await doorOne.getByText('1 scan waiting to sync').waitFor();
    await doorTwo.getByText('1 scan waiting to sync').waitFor();

    // A reload with no network: the app, the list and the waiting scan are still there.
    await doorTwo.reload();
    await doorTwo.getByRole('heading', { name: 'Check-in' }).waitFor();
    await doorTwo.getByText('1 scan waiting to sync').waitFor();
    await verdict(doorTwo).getByText('Not synced yet').waitFor();
    await screenshots(doorTwo, 'scanner-offline');

    // Signing out now would lose the scan: the app says so and keeps the person signed in.
    await doorTwo.getByRole('button', { name: 'Account menu' }).click();
    await doorTwo.getByRole('menuitem', { name: 'Sign out' }).click();
    await doorTwo.getByText('1 scan is still waiting for the network. Sign out once they have synced.').waitFor();
    await doorTwo.getByText('1 scan waiting to sync').waitFor();

    await doorOne.context().setOffline(false);
    await doorOne.getByTestId('scans-waiting').waitFor({ state: 'detached', timeout: 20_000 });
    await doorTwo.context().setOffline(false);
    await doorTwo.getByTestId('scans-waiting').waitFor({ state: 'detached', timeout: 20_000 });

    await expect.poll(() => verdict(doorOne).getAttribute('data-result')).toBe('accepted');
    await expect.poll(() => verdict(doorTwo).getAttribute('data-result'), { timeout: 10_000 }).toBe('duplicate');
    await verdict(doorTwo)
      .getByText(/at Door 1$/)
      .waitFor();
    // Both doors see the second scan as a duplicate in the log of all doors.
    for (const door of [doorOne, doorTwo]) {
      const log = door.getByRole('table', { name: 'Latest scans at all doors' });
      await log.getByRole('row').filter({ hasText: 'Door 2' }).filter({ hasText: 'Already checked in' }).first().waitFor();
    }
    await doorOne.getByText('2 of 4 checked in').waitFor();
  });

  it('admits provisionally a genuine ticket bought after the door last synced, and refuses a made-up code', async () => {
    await doorTwo.context().setOffline(true);
    await callAs(doorOne)('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 1 }] });
    const newCode = (await myCodes(doorOne, 5)).find((code) => !codes.includes(code))!;

    await scan(doorTwo, newCode);
    await expect.poll(() => verdict(doorTwo).getAttribute('data-result')).toBe('provisional');
    await scan(doorTwo, `${newCode.slice(0, -1)}${newCode.endsWith('A') ? 'B' : 'A'}`);
    await expect.poll(() => verdict(doorTwo).getAttribute('data-result')).toBe('unknown');

    await doorTwo.context().setOffline(false);
    await doorTwo.getByTestId('scans-waiting').waitFor({ state: 'detached', timeout: 20_000 });
    await doorTwo.getByText('3 of 5 checked in').waitFor();
  });

  it("reads a ticket's QR code with the phone's camera", async () => {
    // A third phone whose camera sees the first ticket's QR code (Chromium's fake camera, which
    // plays a video made here): with no BarcodeDetector on Linux, the ZXing ponyfill reads it.
    const video = path.join(mkdtempSync(path.join(os.tmpdir(), 'admit-camera-')), 'ticket.y4m');
    writeQrVideo(video, codes[0]!);
    const doorThree = await journey.newPage({ chromiumArgs: fakeCameraArgs(video), permissions: ['camera'] });
    await signIn(doorThree, olivia);
    await openScanner(doorThree, 'Door 3');
    await doorThree.getByRole('button', { name: 'Camera', exact: true }).click();
    await doorThree.getByLabel('Camera view for scanning QR codes').waitFor();
    await expect.poll(() => verdict(doorThree).getAttribute('data-result'), { timeout: 20_000 }).toBe('duplicate');
    await verdict(doorThree).getByText('Olivia Organizer').waitFor();
    await verdict(doorThree)
      .getByText(/at Door 1$/)
      .waitFor();
    await doorThree.getByRole('button', { name: 'Close camera' }).click();
    await doorThree.getByLabel('Camera view for scanning QR codes').waitFor({ state: 'detached' });
  });
});
