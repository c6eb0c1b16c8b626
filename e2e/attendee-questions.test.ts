import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('a buyer answers the questions of two workshop tickets with a discount code, and the organizer finds the answers everywhere', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let buyer: Page;
  let eventId = '';
  let slug = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    buyer = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('sets up a paid workshop with a discount code', async () => {
    await signUpAndVerify(organizer, { name: 'Quinn Questioner', email: 'quinn@example.test' });
    // Making the event and its code is other screens' work: done through the callables they use.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Maker Space' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Soldering Workshop',
      venue: 'Maker Space, Leipzig',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-03-07T10:00',
      endsAtLocal: '2030-03-07T16:00',
      capacity: 30,
    }));
    await callAs(organizer)('events.addTicketType', { eventId, name: 'Workshop', capacity: 30, price: 3000 });
    await callAs(organizer)('events.publish', { eventId });
    await callAs(organizer)('codes.create', { eventId, code: 'TEAM10', discount: { kind: 'percent', percent: 10 } });
  });

  it('asks each attendee their diet, which allergy when the diet is “Other”, and shows the diet at the door', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Soldering Workshop', level: 1 }).waitFor();
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Questions' }).click();
    await organizer.getByRole('heading', { name: /Questions/, level: 1 }).waitFor();

    await organizer.getByRole('button', { name: 'Add question' }).first().click();
    const dialog = organizer.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Question', exact: true }).fill('Diet');
    await dialog.getByRole('combobox', { name: 'Kind of answer' }).click();
    await organizer.getByRole('option', { name: 'Choice (one)' }).click();
    await dialog.getByRole('textbox', { name: 'Option 1' }).fill('No preference');
    await dialog.getByRole('textbox', { name: 'Option 2' }).fill('Vegan');
    await dialog.getByRole('button', { name: 'Add option' }).click();
    await dialog.getByRole('textbox', { name: 'Option 3' }).fill('Other');
    await dialog.getByRole('checkbox', { name: /Required/ }).check();
    await dialog.getByRole('checkbox', { name: 'Show the answer on the scanner' }).check();
    await screenshots(organizer, 'question-form');
    await dialog.getByRole('button', { name: 'Add question' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await organizer.getByRole('button', { name: 'Add question' }).first().click();
    await dialog.getByRole('textbox', { name: 'Question', exact: true }).fill('Which allergy?');
    await dialog.getByRole('checkbox', { name: /Required/ }).check();
    await dialog.getByRole('combobox', { name: 'Show only when… (optional)' }).click();
    await organizer.getByRole('option', { name: 'Diet' }).click();
    await dialog.getByRole('checkbox', { name: 'Other', exact: true }).check();
    await dialog.getByRole('button', { name: 'Add question' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await organizer.getByText('Which allergy?').waitFor();
    await screenshots(organizer, 'event-questions');
  });

  it('asks the buyer for each ticket before anything is held, with the allergy only after “Other”', async () => {
    await signUpAndVerify(buyer, { name: 'Bea Builder', email: 'bea@example.test' });
    await buyer.goto(`/e/${slug}?code=team10`);
    await buyer
      .getByRole('status')
      .getByText(/Code TEAM10 applied/)
      .waitFor();
    await buyer.getByRole('spinbutton', { name: 'Number of Workshop tickets' }).fill('2');
    await buyer.getByRole('button', { name: 'Continue' }).click();
    await buyer.getByRole('heading', { name: 'Questions for each ticket' }).waitFor();
    const [first, second] = [buyer.getByTestId('attendee').nth(0), buyer.getByTestId('attendee').nth(1)];

    // Nothing answered: nothing is ordered, and the first question to answer says so.
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await first.getByText('Answer this question.').waitFor();
    await buyer.getByRole('alert').getByText('2 answers need your attention.').waitFor();
    // The first question to answer has the focus: its first option.
    await expect
      .poll(() => buyer.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value))
      .toBe('No preference');
    if (!buyer.url().includes(`/e/${slug}`)) throw new Error('an order was made without its answers');

    await first.getByRole('radio', { name: 'Other' }).check();
    await first.getByRole('textbox', { name: 'Which allergy?' }).fill('Peanuts');
    await second.getByRole('radio', { name: 'Vegan' }).check();
    if ((await second.getByRole('textbox', { name: 'Which allergy?' }).count()) !== 0)
      throw new Error('the allergy was asked after “Vegan”');
    await screenshots(buyer, 'checkout-questions');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();

    // Held with the answers; 10% off €30.00 twice.
    await buyer.getByTestId('order-total').getByText('€54.00').waitFor();
    const answers = buyer.getByTestId('attendee-answers');
    await answers.nth(0).getByText('Peanuts').waitFor();
    await answers.nth(1).getByText('Vegan').waitFor();
    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Paid');
  });

  it('lets the buyer change a ticket’s answers after paying', async () => {
    await buyer.getByRole('button', { name: 'Change answers: Workshop: ticket 2 of 2' }).click();
    const dialog = buyer.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Other' }).check();
    await dialog.getByRole('button', { name: 'Save answers' }).click();
    await dialog.getByText('Answer this question.').waitFor();
    await dialog.getByRole('textbox', { name: 'Which allergy?' }).fill('Gluten');
    await dialog.getByRole('button', { name: 'Save answers' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await buyer.getByTestId('attendee-answers').nth(1).getByText('Gluten').waitFor();
    await screenshots(buyer, 'order-answers');
    // The note that they were saved goes by itself (until then it covers the page's header).
    await buyer.getByText('Answers saved').waitFor({ state: 'hidden' });
  });

  it('shows the organizer the discount and the answers in the order, the attendee export and the scanner', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer
      .getByRole('row', { name: /Bea Builder/ })
      .getByRole('link', { name: 'Bea Builder' })
      .click();
    await organizer.getByTestId('line-code').getByText('Code TEAM10: €3.00 off each').waitFor();
    await organizer.getByText('Peanuts').waitFor();
    await organizer.getByText('Gluten').waitFor();
    await screenshots(organizer, 'order-detail-answers');

    await organizer.goto(`/manage/events/${eventId}`);
    const [download] = await Promise.all([
      organizer.waitForEvent('download'),
      organizer.getByRole('button', { name: 'Attendees (CSV)' }).click(),
    ]);
    const [header, ...rows] = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header!.split(',').slice(-2)).toEqual(['Diet', 'Which allergy?']);
    expect(rows.map((row) => row.split(',').slice(-2).join(' | ')).sort()).toEqual(['Other | Gluten', 'Other | Peanuts']);

    await organizer.goto(`/manage/events/${eventId}/scan`);
    await organizer.getByRole('textbox', { name: 'Scanner name' }).fill('Door 1');
    await organizer.getByRole('button', { name: 'Start scanning' }).click();
    await organizer.getByRole('heading', { name: 'Check-in' }).waitFor();
    // The door finds Bea by name, as for a ticket that will not scan.
    const field = organizer.getByRole('textbox', { name: 'Ticket code or name' });
    await field.fill('Bea');
    await organizer.getByRole('button', { name: 'Check in Bea Builder' }).first().click();
    await organizer.getByTestId('door-answers').getByText('Other').waitFor();
    await screenshots(organizer, 'scanner-answers');
  });
});
