import { currencyDigits } from '@admit/shared/money';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

// How values are written in an export: one formatter per file, made once (Intl formatters are
// slow to build and fast to use, and an export can have 100,000 rows).

/** An instant as ISO 8601 in UTC with its offset and no milliseconds: `2030-01-10T18:00:00Z`. */
export const isoInstant = (instant: Date | null) => (instant ? `${instant.toISOString().slice(0, 19)}Z` : '');

/** The wall clock of the event's zone, as spreadsheets read a date and time: `2030-01-10 19:00:00`. */
export function localTimeFormatter(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (instant: Date | null) => {
    if (!instant) return '';
    const parts: Record<string, string> = {};
    for (const part of format.formatToParts(instant)) parts[part.type] = part.value;
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  };
}

/** Money in the reader's locale ("15,00 €" in de), for the column next to the minor units. */
export function moneyFormatter(locale: string, currency: string) {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const divisor = 10 ** currencyDigits(currency);
  return (minor: number) => format.format(minor / divisor);
}

/**
 * The most characters an export writes in one cell: the longest value any entrance accepts (an
 * event's description), so nothing a person could enter is ever cut (decision 0031).
 */
export const cellMax = 10_000;

/**
 * A text column as an export reads it: whole up to `cellMax` characters, longer (only rows from
 * before the entrances' limits can be) cut in the database to `cellMax` with "…" last, so that a
 * page of 1,000 rows never carries more than its cells can hold.
 */
export const exportedText = <T extends string | null = string>(column: SQLWrapper): SQL<NoInfer<T>> =>
  sql`case when length(${column}) > ${cellMax} then left(${column}, ${cellMax - 1}) || '…' else ${column} end`;
