import type { Discount } from '@admit/shared/codes';
import { Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatMoney } from './money';

/** A code's discount in words: "20% off", "€5.00 off each ticket", or a dash for none. */
export function DiscountText({ discount, currency }: { discount: Discount | null; currency: string }) {
  const intl = useIntl();
  if (!discount) return <>—</>;
  if (discount.kind === 'percent')
    return (
      <FormattedMessage
        id="codes.discount.percentOff"
        defaultMessage="{percent, number}% off"
        values={{ percent: discount.percent }}
      />
    );
  return (
    <FormattedMessage
      id="codes.discount.amountOff"
      defaultMessage="{amount} off each ticket"
      values={{ amount: formatMoney(intl.locale, discount.amount, currency) }}
    />
  );
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
