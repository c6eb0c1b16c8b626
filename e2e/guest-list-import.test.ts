import { mkdirSync, readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

const shots = '/tmp/shots-csv';

/** A guest list as a spreadsheet in Germany saves it: semicolons, German headers, "Gast" not guessed. */
const firstFile = [
  'Gast;E-Mail;Kategorie;Anzahl',
  'Anna Schmidt;anna@example.test;Standing;2',
  'Ben Braun;ben(at)example.test;Standing;1',
  'Carla Conti;carla@example.test;Balcony;1',
].join('\r\n');
const fixedFile = firstFile.replace('ben(at)example.test', 'ben@example.test').replace('Balcony', 'VIP');

async function chooseFile(page: Page, name: string, text: string) {
  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByRole('heading', { name: '2. Match the columns' }).waitFor();
}

async function mapNameToGast(page: Page) {
  await page
    .locator('input')
    .and(page.getByLabel('Name', { exact: true }))
    .click();
  await page.getByRole('option', { name: 'Column 1: Gast' }).click();
}

describe('an organizer imports a guest list, fixes its errors, imports it, and imports it again', () => {
  const journey = useJourney();
  let page: Page;
  let eventId = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    page = await journey.newPage({
      timezoneId: 'Europe/Berlin',
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
  });

  it('opens the import from the event’s page', async () => {
    await signUpAndVerify(page, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    const call = callAs(page);
    const { organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId } = await call<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Summer Gala',
      venue: 'Harbour Hall, Hamburg',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 100,
    }));
    await call('events.addTicketType', { eventId, name: 'Standing', capacity: 80, maxPerOrder: 10 });
    await call('events.addTicketType', { eventId, name: 'VIP', capacity: 5, maxPerOrder: 2, price: 9000 });
    await call('events.publish', { eventId });

    await page.goto(`/manage/events/${eventId}`);
    await page.getByRole('heading', { name: 'Summer Gala' }).waitFor();
    await page.getByRole('link', { name: 'Import a guest list' }).click();
    await page.getByRole('heading', { name: 'Import a guest list', level: 1 }).waitFor();
    await page.screenshot({ path: `${shots}/import-pick-1280.png`, fullPage: true });
  });

  it('reads the file, maps the name column by hand and previews the first rows', async () => {
    await chooseFile(page, 'gaeste.csv', firstFile);
    await page.getByText('gaeste.csv: 3 rows, UTF-8, separated by semicolons.').waitFor();
    // Guessed from the German headers: email, ticket type, quantity; the name is chosen by hand.
    expect(
      await page
        .locator('input')
        .and(page.getByLabel(/^Email/))
        .inputValue(),
    ).toBe('Column 2: E-Mail');
    expect(
      await page
        .locator('input')
        .and(page.getByLabel('Name', { exact: true }))
        .inputValue(),
    ).toBe('Not in the file');
    await mapNameToGast(page);
    await page.getByRole('cell', { name: 'Anna Schmidt' }).waitFor();
    await page.screenshot({ path: `${shots}/import-map-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/import-map-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('reports each row’s problems before writing anything, and offers them as a CSV', async () => {
    await page.getByRole('button', { name: 'Check 3 rows' }).click();
    await page.getByRole('heading', { name: '3. Check the report' }).waitFor();
    await page.getByText('1 row is ready to import (2 tickets)').waitFor();
    await page.getByText('2 rows have problems and will not be imported').waitFor();
    const problems = page.getByRole('table', { name: 'Rows with problems' });
    await problems.getByRole('row', { name: /Ben Braun.*The email address is not valid\./ }).waitFor();
    await problems.getByRole('row', { name: /Carla Conti.*The ticket type is not one of this event’s\./ }).waitFor();
    const region = page.getByRole('region', { name: 'Rows with problems' });
    expect(await region.getAttribute('tabindex')).toBeNull();
    await page.screenshot({ path: `${shots}/import-report-1280.png`, fullPage: true });
    // On a phone the table scrolls sideways, and says so; a keyboard can reach it to scroll it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText('Scroll sideways to see every column.').first().waitFor();
    expect(await region.getAttribute('tabindex')).toBe('0');
    await region.focus();
    await region.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await page.screenshot({ path: `${shots}/import-report-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByText('Scroll sideways to see every column.').first().waitFor({ state: 'detached' });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the error report (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('gaeste-errors.csv');
    const report = readFileSync((await download.path())!, 'utf8');
    expect(report.startsWith('\uFEFF')).toBe(true);
    const records = Papa.parse<string[]>(report.slice(1), { skipEmptyLines: true }).data;
    expect(records).toEqual([
      ['Line', 'Status', 'Problems', 'Gast', 'E-Mail', 'Kategorie', 'Anzahl'],
      ['3', 'Error', 'The email address is not valid.', 'Ben Braun', 'ben(at)example.test', 'Standing', '1'],
      ['4', 'Error', 'The ticket type is not one of this event’s.', 'Carla Conti', 'carla@example.test', 'Balcony', '1'],
    ]);
    // Nothing was written by checking.
    const rows = await callAs(page)<{ rows: { status: string }[] }>('imports.validate', {
      eventId,
      rows: [{ line: 2, email: 'anna@example.test', ticketType: 'Standing' }],
    });
    expect(rows.rows[0]!.status).toBe('ok');
  });

  it('imports the fixed file with a progress bar, creating each guest’s tickets', async () => {
    await page.getByRole('button', { name: 'Choose another file' }).click();
    await chooseFile(page, 'gaeste.csv', fixedFile);
    await mapNameToGast(page);
    await page.getByRole('button', { name: 'Check 3 rows' }).click();
    await page.getByText('3 rows are ready to import (4 tickets)').waitFor();
    await page.getByRole('button', { name: 'Import 3 guests' }).click();
    await page.getByRole('heading', { name: '4. Done' }).waitFor();
    await page.getByText('3 guests were imported (4 tickets); none had been imported before.').waitFor();
    await page.screenshot({ path: `${shots}/import-done-1280.png`, fullPage: true });
  });

  it('imports the same file again without adding anyone twice', async () => {
    await page.getByRole('button', { name: 'Import another file' }).click();
    await chooseFile(page, 'gaeste.csv', fixedFile);
    await mapNameToGast(page);
    await page.getByRole('button', { name: 'Check 3 rows' }).click();
    await page.getByText('3 rows were imported before and will be skipped').waitFor();
    await page.getByText('0 rows are ready to import (0 tickets)').waitFor();
    expect(await page.getByRole('button', { name: 'Import 0 guests' }).isDisabled()).toBe(true);
  });

  it('names the line of a file with an unclosed quote, and imports nothing from it', async () => {
    await page.getByRole('button', { name: 'Choose another file' }).click();
    await page.locator('input[type=file]').setInputFiles({
      name: 'broken.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,email\nDora,dora@example.test\n"Eve,eve@example.test\n'),
    });
    await page
      .getByRole('alert')
      .getByText('Line 3 opens a quotation mark that is never closed. Nothing was imported.')
      .waitFor();
  });

  it('downloads the attendee list from the event’s page with the imported guests in it', async () => {
    await page.goto(`/manage/events/${eventId}`);
    await page.getByRole('heading', { name: 'Summer Gala' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Attendees (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^summer-gala.*-attendees-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const records = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
    expect(records.map((record) => `${record.holder_name}|${record.ticket_type}`).sort()).toEqual([
      'Anna Schmidt|Standing',
      'Anna Schmidt|Standing',
      'Ben Braun|Standing',
      'Carla Conti|VIP',
    ]);
  });
});
