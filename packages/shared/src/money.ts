/**
 * Money is integer minor units of an ISO 4217 currency everywhere (cents; yen for JPY, which has
 * none). These turn it into what people read and type, with Intl's knowledge of each currency.
 */

/** How many decimals the currency has: 2 for EUR, 0 for JPY, 3 for KWD. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** 1500 JPY → "¥1,500" in en, "1.500 ¥" in de; 1500 EUR → "€15.00", "15,00 €". */
export function formatMoney(locale: string, minor: number, currency: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 10 ** currencyDigits(currency));
}

/** What a person typed (15.5 EUR) in minor units (1550), rounded to the currency's smallest unit. */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** currencyDigits(currency));
}
