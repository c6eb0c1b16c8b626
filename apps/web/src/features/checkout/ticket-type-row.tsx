import type { TicketAvailabilityRow } from '@admit/shared/events';
import { directionOf, type Locale } from '@admit/shared/locales';
import { Badge, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatMoment } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { useTakenOver } from '../../lib/taken-over';
import plainField from '../../lib/plain-field.module.css';
import classes from './ticket-picker.module.css';

/** A ticket type as the picker shows it: its price with the buyer's code, and without. */
export type ShownType = TicketAvailabilityRow & { listPrice: number; unlocked: boolean };

/** What a ticket offered back costs when that is what the type sells now (its own places gone); else null. */
export const resalePriceOf = (type: TicketAvailabilityRow) => (type.remaining === 0 && type.resale > 0 ? type.resalePrice : null);

/** Whether a type is on sale at `now`, not yet, or no more. */
export function salesWindowOf(
  type: Pick<TicketAvailabilityRow, 'salesStart' | 'salesEnd'>,
  now: number,
): 'before' | 'open' | 'after' {
  if (type.salesStart && Date.parse(type.salesStart) > now) return 'before';
  if (type.salesEnd && Date.parse(type.salesEnd) <= now) return 'after';
  return 'open';
}

/** The time now, renewed when the next of the types' sales starts or ends (at most an hour ahead, then again). */
export function useNow(types: readonly Pick<TicketAvailabilityRow, 'salesStart' | 'salesEnd'>[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = Math.min(
    ...types
      .flatMap((type) => [type.salesStart, type.salesEnd])
      .flatMap((at) => (at && Date.parse(at) > now ? [Date.parse(at)] : [])),
    now + 3_600_000,
  );
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), Math.max(1_000, next - Date.now() + 500));
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}

/**
 * One ticket type in the picker: its name, price and what is left, and its number field; under a
 * sold-out type, what the page offers instead (`soldOut`: the waiting list, composed by the route).
 * A sold-out type whose holders offer tickets back (decision 0066) sells those instead: `max` is
 * already no more than there are.
 */
export function TicketTypeRow({
  type,
  name,
  currency,
  quantity,
  max,
  onSale,
  sales = 'open',
  timeZone,
  onQuantityChange,
  soldOut: soldOutPart,
}: {
  type: ShownType;
  /** Its name in the language the page shows the event in. */
  name: { name: string; locale: Locale };
  currency: string;
  quantity: number;
  max: number;
  onSale: boolean;
  /** Its own sales window: before it, its sales start is said (and a pre-sale list may take people). */
  sales?: 'before' | 'open' | 'after';
  timeZone?: string;
  onQuantityChange: (quantity: number) => void;
  soldOut?: ReactNode;
}) {
  const intl = useIntl();
  const takenOver = useTakenOver();
  const soldOut = type.remaining === 0 && sales === 'open';
  // Nobody waits for them (the server offers them to the waiting list first): they are for anyone.
  const resold = soldOut && type.resale > 0;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap" align="center">
        <Stack gap={2}>
          <Text fw={600} lang={name.locale} dir={directionOf(name.locale)}>
            {name.name}
          </Text>
          <Group gap="xs">
            {type.unlocked && (
              <Badge variant="light" color="grape" leftSection={<IconKey size={12} aria-hidden />}>
                <FormattedMessage id="picker.code.badge" defaultMessage="With your code" />
              </Badge>
            )}
            {type.listPrice !== type.price && (
              <Text size="sm" c="dimmed" td="line-through">
                <VisuallyHidden>
                  <FormattedMessage id="picker.listPrice" defaultMessage="Without the code:" />
                </VisuallyHidden>
                {formatMoney(intl.locale, type.listPrice, currency)}
              </Text>
            )}
            <Text size="sm">
              {type.price === 0 ? (
                <FormattedMessage id="picker.free" defaultMessage="Free" />
              ) : (
                formatMoney(intl.locale, type.price, currency)
              )}
            </Text>
            {sales === 'before' ? (
              <Text size="sm" c="dimmed" data-testid={`sales-start-${type.id}`}>
                <FormattedMessage
                  id="picker.salesStart"
                  defaultMessage="On sale from {moment}"
                  values={{ moment: formatMoment(intl.locale, type.salesStart!, timeZone ?? 'UTC') }}
                />
              </Text>
            ) : sales === 'after' ? (
              <Badge color="gray" variant="light">
                <FormattedMessage id="picker.salesEnded" defaultMessage="Sales have ended" />
              </Badge>
            ) : resold ? null : soldOut ? (
              <Badge color="red" variant="light">
                <FormattedMessage id="picker.soldOut" defaultMessage="Sold out" />
              </Badge>
            ) : (
              <Text size="sm" c="dimmed" data-testid={`remaining-${type.id}`}>
                <FormattedMessage
                  id="picker.remaining"
                  defaultMessage="{count, plural, one {# left} other {# left}}"
                  values={{ count: type.remaining }}
                />
              </Text>
            )}
          </Group>
          {resold && (
            <Text size="sm" data-testid={`resale-${type.id}`}>
              <FormattedMessage
                id="picker.resale"
                defaultMessage="{count, plural, one {# ticket offered back by another fan, at the price they paid} other {# tickets offered back by other fans, at the price they paid}}"
                values={{ count: type.resale }}
              />
            </Text>
          )}
          {type.maxPerBuyer !== null && (
            <Text size="xs" c="dimmed">
              <FormattedMessage
                id="picker.maxPerBuyer"
                defaultMessage="At most {count, number} per person, across orders"
                values={{ count: type.maxPerBuyer }}
              />
            </Text>
          )}
        </Stack>
        {/* Out of its sales window there is nothing to choose: no field to stop at. */}
        {sales === 'open' && (
          <input
            className={`${plainField.field} ${classes.quantity}`}
            type="number"
            inputMode="numeric"
            aria-label={intl.formatMessage(
              { id: 'picker.quantity', defaultMessage: 'Number of {name} tickets' },
              { name: name.name },
            )}
            value={quantity}
            onChange={(change) => {
              const typed = Math.floor(change.currentTarget.valueAsNumber) || 0;
              onQuantityChange(Math.min(Math.max(0, typed), max));
            }}
            min={0}
            max={max}
            step={1}
            // What is typed before the page is taken over would be lost: the field waits until then.
            disabled={(soldOut && !resold) || !onSale || !takenOver}
          />
        )}
      </Group>
      {((soldOut && !resold) || sales === 'before') && soldOutPart}
    </Stack>
  );
}
