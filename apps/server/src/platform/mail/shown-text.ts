// How much of a person-entered value an email or a ticket PDF shows (decision 0031). The entrances
// refuse longer values, but rows written before they did may hold anything (a 900,000-character
// name once cost 37 s of blocked event loop for one PDF and made a 9.7 MB email), so each renderer
// shortens what it is given before it does any other work with it.

/**
 * The most a rendering shows of each kind of value, in UTF-16 code units (what the entrances' zod
 * `max` counts, so a value an entrance accepts is always shown whole): the entrance's own maximum.
 */
export const shownMax = {
  /** A buyer's or ticket holder's name. */
  personName: 200,
  /** An event's title or a ticket type's name. */
  title: 200,
  venue: 300,
  /** A refund's reason, as the organizer wrote it. */
  reason: 500,
} as const;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` whole when it has at most `max` code units; otherwise as many whole graphemes from its
 * start as leave room for "…" within `max`, then "…". A grapheme (an emoji with its modifiers, a
 * letter with its accents, a surrogate pair) is never split. Reads at most `max` code units of
 * `text`, however long it is: a grapheme boundary depends only on what comes before it and the one
 * character after it, so the boundaries inside the first `max` code units are the text's own.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index, segment } of graphemes.segment(text.slice(0, max))) {
    if (index + segment.length > max - 1) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end)}…`;
}
