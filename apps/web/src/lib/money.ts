export { currencyDigits, formatMoney, toMinorUnits } from '@admit/shared/money';
