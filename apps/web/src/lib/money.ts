/** Formats an amount in minor units (cents, or yen for zero-decimal currencies) in the viewer's locale. */
export function formatMoney(locale: string, minor: number, currency: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}
