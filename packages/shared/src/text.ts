import { z } from 'zod';

/**
 * One line of text: no line break, tab or other control character (U+0000 to U+001F, U+007F). The
 * rule for whatever is shown as a line — a person's name, an event's title and venue — in lists,
 * email subjects, calendar files and PDFs, where a line break would start a new field or header.
 * PostgreSQL refuses NUL in text anyway.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const oneLine = /^[^\u0000-\u001f\u007f]*$/;

/** The message of a refused line, which the browser's forms turn into a sentence (lib/form.ts). */
export const oneLineMessage = 'One line, without control characters';

/** Trimmed text on one line; limits of length are the caller's. */
export const OneLineText = z.string().trim().regex(oneLine, oneLineMessage);
