import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

// A buyer who pays for a ticket, and a door that admits it, with the keyboard alone: every step is
// a key press (Tab, typing, Enter), no mouse event is sent. The scanner says each verdict once to a
// screen reader, through one live region.

/** What the focused element is, as a screen reader would name it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    const labelled = element.getAttribute('aria-labelledby');
    const label =
      element.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ??
      element.textContent;
    return (label ?? '').replace(/\s+/g, ' ').trim();
  });

/** Presses Tab until the focused element's name matches, as a keyboard user looks for a control. */
async function tabTo(page: Page, name: RegExp, presses = 40) {
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press('Tab');
    if (name.test(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${String(name)}; the last focus was "${await focused(page)}"`);
}

describe('a buyer and a door who use only the keyboard', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let page: Page;
  let slug = '';
  let eventId = '';
  let code = '';

  beforeAll(async () => {
    page = await journey.newPage();
    await signUpAndVerify(page, { name: 'Kira Keys', email: 'kira@example.test' });
    const call = callAs(page);
    const { organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Keyboard Club' });
    ({ eventId, slug } = await call<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Quiet Concert',
      venue: 'Small Hall',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-05-05T19:00',
      endsAtLocal: '2030-05-05T21:00',
      capacity: 30,
    }));
    await call('events.addTicketType', { eventId, name: 'Seat', capacity: 30, price: 1500 });
    await call('events.publish', { eventId });
  });

  it('takes a ticket and pays for it with the sandbox card form, by Tab, typing and Enter', async () => {
    await page.goto(`/e/${slug}`);
    await page.getByRole('heading', { name: 'Quiet Concert' }).waitFor();
    await tabTo(page, /^Number of Seat tickets$/);
    await page.keyboard.type('1');
    await tabTo(page, /^Get 1 ticket$/);
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Your order' }).waitFor();
    await tabTo(page, /^Card number/);
    await page.keyboard.type('4242 4242 4242 4242');
    await tabTo(page, /^Expiry/);
    await page.keyboard.type('12/34');
    await tabTo(page, /^CVC/);
    await page.keyboard.type('123');
    await tabTo(page, /^Pay with test card$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('order-status').textContent(), { timeout: 15_000 }).toBe('Paid');
    await screenshots(page, 'keyboard-paid');

    await tabTo(page, /^Show my tickets$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'My tickets' }).waitFor();
    // The focus went with the person to the new screen's heading, where a screen reader starts reading.
    await expect.poll(() => focused(page)).toBe('My tickets');
    code = (await page.getByRole('code').first().textContent())!.trim();
    expect(code.length).toBeGreaterThan(20);
  });

  it('admits the ticket at the door and says each verdict once, keeping the focus where the next scan goes', async () => {
    await page.goto(`/manage/events/${eventId}/scan`);
    await page.getByRole('textbox', { name: 'Scanner name' }).waitFor();
    await tabTo(page, /^Scanner name/);
    await page.keyboard.type('Door 1');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check-in' }).waitFor();

    // The field has the focus: a scan is typed (or sent by a scanner gun) and Enter.
    expect(await focused(page)).toMatch(/^Ticket code or name/);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    const verdict = page.getByTestId('scan-verdict');
    await expect.poll(() => verdict.getAttribute('data-result')).toBe('accepted');
    const announcement = page.getByTestId('scan-announcement');
    await expect.poll(() => announcement.textContent()).toBe('Admitted. Kira Keys. Seat');
    expect(await announcement.getAttribute('aria-live')).toBe('assertive');
    // One voice: the verdict box is not an alert of its own, and the page has no other live verdict.
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await focused(page)).toMatch(/^Ticket code or name/);

    // The same ticket again: said again, with when and where it came in first.
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect.poll(() => verdict.getAttribute('data-result')).toBe('duplicate');
    await expect
      .poll(() => announcement.textContent())
      .toMatch(/^Already checked in\. Kira Keys\. Seat\. at \d{1,2}:\d{2}.* at Door 1$/);

    await page.keyboard.type('no-such-ticket-code-at-all-xx');
    await page.keyboard.press('Enter');
    await expect.poll(() => announcement.textContent()).toBe('Unknown ticket');
    await screenshots(page, 'keyboard-scanner');
  });
});
