import type { Discount } from '@admit/shared/codes';
import { Text } from '@mantine/core';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { formatMoney } from './money';

/** A code's discount in words: "20% off", "€5.00 off each ticket"; "None" without one. */
export function discountWords(intl: IntlShape, discount: Discount | null, currency: string): string {
  if (!discount) return intl.formatMessage({ id: 'codes.discount.noDiscount', defaultMessage: 'None' });
  if (discount.kind === 'percent')
    return intl.formatMessage(
      { id: 'codes.discount.percentOff', defaultMessage: '{percent, number}% off' },
      { percent: discount.percent },
    );
  return intl.formatMessage(
    { id: 'codes.discount.amountOff', defaultMessage: '{amount} off each ticket' },
    { amount: formatMoney(intl.locale, discount.amount, currency) },
  );
}

/** discountWords as a piece of the page. */
export function DiscountText({ discount, currency }: { discount: Discount | null; currency: string }) {
  const intl = useIntl();
  return <>{discountWords(intl, discount, currency)}</>;
}

/** Under an order's line: the code it was bought with, and what it took off each ticket. */
export function LineCodeNote({ line, currency }: { line: { code: string | null; discount: number }; currency: string }) {
  const intl = useIntl();
  if (!line.code) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="line-code">
      {line.discount > 0 ? (
        <FormattedMessage
          id="order.lineDiscount"
          defaultMessage="Code {code}: {amount} off each"
          values={{ code: line.code, amount: formatMoney(intl.locale, line.discount, currency) }}
        />
      ) : (
        <FormattedMessage id="order.lineCode" defaultMessage="With code {code}" values={{ code: line.code }} />
      )}
    </Text>
  );
}
