import type { Locale } from '@admit/shared/locales';
import {
  PDFDocument,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import { mailIntl } from '../../platform/mail/compose';
import { formatEventStart } from '../../platform/mail/formats';
import { mailMessages } from '../../platform/mail/messages';
import { shorten, shownMax } from '../../platform/mail/shown-text';
import { darkRuns, ticketQrModules } from './ticket-qr';

export interface TicketPdfInput {
  /** The language of the words on the tickets. */
  locale: Locale;
  event: { title: string; venue: string; startsAt: Date; timeZone: string };
  /** The event's cover and the organization's logo as JPEG bytes, drawn at the top of each page. */
  pictures?: { cover: Uint8Array | null; logo: Uint8Array | null };
  /** Printed small at the bottom of each page ("Order 1A2B3C4D"), for support questions. */
  orderReference: string;
  tickets: { code: string; holderName: string; ticketTypeName: string }[];
}

// A4 in points, and the colours of the emails.
const pageSize: [number, number] = [595.28, 841.89];
const margin = 56;
const ink = rgb(0.129, 0.145, 0.161);
const muted = rgb(0.525, 0.557, 0.588);
const brand = rgb(0.11, 0.494, 0.839);
const rule = rgb(0.914, 0.925, 0.937);

/**
 * The 14 standard PDF fonts need no font file but only know Windows-1252 (Latin letters with
 * their accents, €, ¥). Other characters (Japanese, Arabic, emoji) become "?" rather than failing
 * the whole PDF: the QR code and the code in text, which the door needs, are always ASCII.
 * Decision 0020 says why no Unicode font is embedded.
 */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return Array.from(
    text
      .replace(/[\u2000-\u200a\u202f\u205f]/g, ' ') // Intl puts thin and narrow spaces in times and amounts
      .replace(/\s+/g, ' ')
      .trim(),
  )
    .map((char) => (known.has(char.codePointAt(0)!) ? char : '?'))
    .join('');
}

/**
 * Breaks text into at most `maxLines` lines no wider than `width`. A word wider than a line is
 * split where the line is full, starting on the line it comes to; text that needs more lines ends
 * the last one shown with "…". It stops measuring once it has one line more than it shows, so its
 * work follows what is shown, not the text's length.
 */
function wrap(font: PDFFont, text: string, size: number, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const fits = (line: string) => font.widthOfTextAtSize(line, size) <= width;
  const lines: string[] = [];
  const enough = () => lines.length > maxLines;
  let current = '';
  words: for (const word of text.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (fits(word)) {
      lines.push(current);
      if (enough()) break;
      current = word;
      continue;
    }
    current = current ? `${current} ` : '';
    for (const char of word) {
      if (current.trim() && !fits(current + char)) {
        lines.push(current.trimEnd());
        current = '';
        if (enough()) break words;
      }
      current += char;
    }
  }
  if (current && !enough()) lines.push(current);
  if (!enough()) return lines;
  const shown = lines.slice(0, maxLines);
  // printable() leaves only Windows-1252 characters, all one code unit long: slicing splits none.
  let last = shown[maxLines - 1]!;
  while (last && !fits(`${last}…`)) last = last.slice(0, -1);
  shown[maxLines - 1] = `${last.trimEnd()}…`;
  return shown;
}

/** Draws a ticket's QR code as vector squares (sharp at any print size), with its quiet zone, its top-left corner at (x, top). */
function drawQr(page: PDFPage, code: string, x: number, top: number, size: number) {
  const qr = ticketQrModules(code);
  const module = size / (qr.size + 2 * qr.quietZone);
  // One filled rectangle per run of dark modules in a row: a quarter of the work of an SVG path.
  page.pushOperators(
    pushGraphicsState(),
    setFillingRgbColor(0, 0, 0),
    ...darkRuns(qr).map((run) =>
      rectangle(
        x + (qr.quietZone + run.column) * module,
        top - (qr.quietZone + run.row + 1) * module,
        run.length * module,
        module,
      ),
    ),
    fill(),
    popGraphicsState(),
  );
}

/**
 * One page per ticket: event, when (in the event's zone), venue, ticket type, holder, the QR code
 * and the code in text. Pass only the tickets that admit someone (status 'valid').
 */
export async function ticketsPdf(input: TicketPdfInput): Promise<Uint8Array> {
  const intl = mailIntl(input.locale);
  // Shortened before anything else reads them: a stored name or title may be of any length.
  const title = shorten(input.event.title, shownMax.title);
  const venue = shorten(input.event.venue, shownMax.venue);
  const pdf = await PDFDocument.create();
  pdf.setTitle(intl.formatMessage(mailMessages.ticketPdfTitle, { event: title }));
  pdf.setLanguage(input.locale);
  pdf.setCreator('Admit');
  pdf.setProducer('Admit');
  // Embedded once, drawn on every page. A picture pdf-lib cannot read is left out, not an error.
  // Copied first: pdf-lib reads the whole underlying ArrayBuffer, and a Node Buffer is often a slice of a shared one.
  const embed = (bytes: Uint8Array | null | undefined) => (bytes ? pdf.embedJpg(Uint8Array.from(bytes)).catch(() => null) : null);
  const cover = await embed(input.pictures?.cover);
  const logo = await embed(input.pictures?.logo);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);

  const width = pageSize[0] - 2 * margin;
  const when = formatEventStart(input.locale, input.event.startsAt, input.event.timeZone);
  const atTheDoor = intl.formatMessage(mailMessages.ticketPdfAtTheDoor);
  const reference = intl.formatMessage(mailMessages.orderReference, { reference: input.orderReference });

  input.tickets.forEach((ticket, index) => {
    const page = pdf.addPage(pageSize);
    let y = pageSize[1] - margin;
    const write = (
      text: string,
      options: { font: PDFFont; size: number; color?: typeof ink; gap?: number; maxLines?: number },
    ) => {
      const lines = wrap(options.font, printable(options.font, text), options.size, width, options.maxLines);
      for (const line of lines) {
        y -= options.size;
        page.drawText(line, { x: margin, y, size: options.size, font: options.font, color: options.color ?? ink });
        y -= options.size * 0.35;
      }
      y -= options.gap ?? 0;
    };

    const logoSize = logo ? 28 : 0;
    if (logo) page.drawImage(logo, { x: margin, y: y - logoSize + 4, width: logoSize, height: logoSize });
    page.drawText('Admit', { x: margin + (logo ? logoSize + 10 : 0), y: y - 20, size: 20, font: bold, color: brand });
    const position = printable(
      regular,
      intl.formatMessage(mailMessages.ticketPdfPosition, { index: index + 1, count: input.tickets.length }),
    );
    page.drawText(position, {
      x: pageSize[0] - margin - regular.widthOfTextAtSize(position, 11),
      y: y - 18,
      size: 11,
      font: regular,
      color: muted,
    });
    y -= 56;
    if (cover) {
      // Across the page, at most 120 points high: the QR code keeps its place on the page.
      const height = Math.min(120, (width * cover.height) / cover.width);
      const drawn = { width: (height * cover.width) / cover.height, height };
      page.drawImage(cover, { x: margin + (width - drawn.width) / 2, y: y - drawn.height, ...drawn });
      y -= drawn.height + 16;
    }

    write(title, { font: bold, size: 24, gap: 10, maxLines: 3 });
    write(when, { font: regular, size: 13, gap: 4 });
    write(venue, { font: regular, size: 13, gap: 16, maxLines: 3 });
    page.drawLine({ start: { x: margin, y }, end: { x: margin + width, y }, thickness: 1, color: rule });
    y -= 24;
    write(shorten(ticket.ticketTypeName, shownMax.title), { font: bold, size: 18, gap: 4, maxLines: 2 });
    write(intl.formatMessage(mailMessages.orderTicketHolder, { name: shorten(ticket.holderName, shownMax.personName) }), {
      font: regular,
      size: 14,
      gap: 16,
      maxLines: 2,
    });

    const qrSize = 260;
    drawQr(page, ticket.code, (pageSize[0] - qrSize) / 2, y, qrSize);
    y -= qrSize + 8;
    const codeSize = 14;
    page.drawText(ticket.code, {
      x: (pageSize[0] - mono.widthOfTextAtSize(ticket.code, codeSize)) / 2,
      y: y - codeSize,
      size: codeSize,
      font: mono,
      color: ink,
    });
    y -= codeSize + 28;
    write(atTheDoor, { font: regular, size: 11, color: muted });

    page.drawText(printable(regular, reference), { x: margin, y: margin - 16, size: 9, font: regular, color: muted });
  });

  // Without object streams: pdf-lib compresses them in JavaScript, a sixth of the PDF's time, for
  // a few hundred bytes.
  return pdf.save({ useObjectStreams: false });
}
