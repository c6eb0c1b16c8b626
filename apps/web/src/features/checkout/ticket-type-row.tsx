import type { TicketAvailabilityRow } from '@admit/shared/events';
import { directionOf, type Locale } from '@admit/shared/locales';
import { Badge, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatMoney } from '../../lib/money';
import plainField from '../../lib/plain-field.module.css';
import classes from './ticket-picker.module.css';

/** A ticket type as the picker shows it: its price with the buyer's code, and without. */
export type ShownType = TicketAvailabilityRow & { listPrice: number; unlocked: boolean };

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
  onQuantityChange: (quantity: number) => void;
  soldOut?: ReactNode;
}) {
  const intl = useIntl();
  const soldOut = type.remaining === 0;
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
            {resold ? null : soldOut ? (
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
          disabled={(soldOut && !resold) || !onSale}
        />
      </Group>
      {soldOut && !resold && soldOutPart}
    </Stack>
  );
}
