import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('an organizer pastes a title with a tab into the new event form', () => {
  const journey = useJourney();
  let organizer: Page;

  beforeAll(async () => {
    organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Tia Tabs', email: 'tia@example.test' });
    await organizer.getByRole('link', { name: 'Organize' }).first().click();
    await organizer.getByLabel('Organization name').fill('Tab Club');
    await organizer.getByRole('button', { name: 'Create organization' }).click();
    await organizer.getByRole('heading', { name: 'Events of Tab Club' }).waitFor();
  });

  it('is told to write it on one line, and creates the event once it is', async () => {
    await organizer.getByLabel('Title').fill('Quiet\tStrings');
    await organizer.getByLabel('Venue').fill('Harbour Hall');
    const zone = organizer.getByRole('combobox', { name: 'Time zone of the event' });
    await zone.fill('Europe/Berlin');
    await organizer.getByRole('option', { name: 'Europe/Berlin' }).click();
    await organizer.getByLabel('Starts').fill('2030-06-14T20:00');
    await organizer.getByLabel('Ends').fill('2030-06-14T23:30');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('5');
    await organizer.getByRole('button', { name: 'Create event' }).click();

    const title = organizer.getByLabel('Title');
    await organizer.getByText('Write this on one line, without tabs or other special characters.').waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await title.evaluate((input) => input.getAttribute('aria-describedby'))).toBeTruthy();

    await title.fill('Quiet Strings');
    await organizer.getByRole('button', { name: 'Create event' }).click();
    await organizer.getByRole('heading', { name: 'Quiet Strings' }).waitFor();
  });
});
