import type { FunnelStep } from '@admit/shared/analytics';
import { defineMessages, type IntlShape } from 'react-intl';

export const stepNames = defineMessages({
  view: { id: 'analytics.step.view', defaultMessage: 'Viewed the event' },
  tickets: { id: 'analytics.step.tickets', defaultMessage: 'Chose tickets' },
  checkout: { id: 'analytics.step.checkout', defaultMessage: 'Started checkout' },
  paid: { id: 'analytics.step.paid', defaultMessage: 'Paid' },
}) satisfies Record<FunnelStep, unknown>;

/** "12 %" of `of`, or "–" when there is nothing to divide by. */
export function share(intl: IntlShape, part: number, of: number) {
  return of > 0 ? intl.formatNumber(part / of, { style: 'percent', maximumFractionDigits: 1 }) : '–';
}
