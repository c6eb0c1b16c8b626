import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

const dana = { name: 'Dana Door', email: 'dana@example.test' };

/**
 * The contrast ratio (WCAG 2) of an element's text with what is drawn behind it: its colour and the
 * backgrounds of it and its ancestors, as the browser computed them, laid on top of each other the
 * way the browser paints them (a canvas does the compositing and reads any CSS colour syntax).
 */
function contrastOf(text: Locator): Promise<number> {
  return text.evaluate((element) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const backgrounds: string[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      backgrounds.unshift(background);
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = background;
      context.fillRect(0, 0, 1, 1);
      if (context.getImageData(0, 0, 1, 1).data[3] === 255) break;
    }
    const paint = (colours: string[]) => {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1, 1);
      for (const colour of colours) {
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
      }
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      const linear = (channel: number) => {
        const c = channel / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    };
    const back = paint(backgrounds);
    const fore = paint([...backgrounds, getComputedStyle(element).color]);
    return (Math.max(back, fore) + 0.05) / (Math.min(back, fore) + 0.05);
  });
}

describe('the door reads every verdict at arm’s length, in the light and the dark scheme, on a phone', () => {
  const journey = useJourney({ context: { viewport: { width: 390, height: 844 } } });
  let door: Page;
  const codes = { first: '', second: '', refunded: '' };
  const verdict = () => door.getByTestId('scan-verdict');

  async function scan(code: string) {
    const field = door.getByRole('textbox', { name: 'Ticket code or name' });
    await field.fill(code);
    await field.press('Enter');
  }
  /** The codes of the tickets on My tickets once `count` are there. */
  async function myCodes(count: number) {
    await door.goto('/tickets');
    await door
      .getByRole('code')
      .nth(count - 1)
      .waitFor();
    return door.getByRole('code').allTextContents();
  }

  /**
   * In each scheme: no serious axe violation on the screen, and the holder's name (where the verdict
   * has one) at 7:1 or more against its card, to check against an ID in a dim hall or in sunlight.
   */
  async function readableInBothSchemes(result: string, holder: string | null) {
    await expect.poll(() => verdict().getAttribute('data-result')).toBe(result);
    for (const scheme of ['light', 'dark'] as const) {
      await door.emulateMedia({ colorScheme: scheme });
      await door.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
      await screenshots(door, `scanner-${result}-${scheme}`);
      expect(await accessibilityViolations(door), `axe on the ${result} verdict, ${scheme} scheme`).toEqual([]);
      if (holder) {
        const ratio = await contrastOf(verdict().getByText(holder, { exact: true }));
        expect(ratio, `the name on the ${result} verdict, ${scheme} scheme`).toBeGreaterThanOrEqual(7);
      }
    }
    await door.emulateMedia({ colorScheme: 'light' });
  }

  beforeAll(async () => {
    door = await journey.newPage();
    await signUpAndVerify(door, dana);
    const call = callAs(door);
    const { organizationId } = await call('orgs.create', { name: 'Verdict Tests' });
    const { eventId } = await call('events.create', {
      organizationId,
      title: 'Night Market',
      venue: 'Pier 3',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-06T20:00',
      endsAtLocal: '2030-06-07T02:00',
      capacity: 50,
    });
    const { ticketTypeId } = await call('events.addTicketType', { eventId, name: 'Entry', capacity: 50, maxPerOrder: 5 });
    await call('events.publish', { eventId });
    await call('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 2 }] });
    [codes.first, codes.second] = (await myCodes(2)) as [string, string];
    const { orderId } = await call('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 1 }] });
    codes.refunded = (await myCodes(3)).find((code) => code !== codes.first && code !== codes.second)!;
    await call('orders.refund', { orderId, reason: 'Cannot come', idempotencyKey: 'door-verdicts-refund' });

    await door.goto(`/manage/events/${eventId}/scan`);
    await door.getByRole('textbox', { name: 'Scanner name' }).fill('Door 1');
    await door.getByRole('button', { name: 'Start scanning' }).click();
    await door.getByText('0 of 2 checked in').waitFor();
  });

  it('shows an admission', async () => {
    await scan(codes.first);
    await readableInBothSchemes('accepted', dana.name);
  });

  it('shows a ticket already checked in', async () => {
    await scan(codes.first);
    await readableInBothSchemes('duplicate', dana.name);
  });

  it('shows an admission taken back', async () => {
    await scan(codes.second);
    await expect.poll(() => verdict().getAttribute('data-result')).toBe('accepted');
    await door.getByRole('button', { name: 'Undo admission' }).click();
    await readableInBothSchemes('undone', dana.name);
  });

  it('shows a refunded ticket as void', async () => {
    await scan(codes.refunded);
    await readableInBothSchemes('void', dana.name);
  });

  it('shows a code of no ticket as unknown', async () => {
    await scan(`${codes.first.slice(0, 16)}${'A'.repeat(12)}`);
    await readableInBothSchemes('unknown', null);
  });
});
