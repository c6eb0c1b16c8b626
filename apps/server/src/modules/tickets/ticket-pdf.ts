import { formatMoney } from '@admit/shared/money';
import { directionOf, type Locale } from '@admit/shared/locales';
import { deflateSync } from 'node:zlib';
import {
  PDFDocument,
  PDFFlateStream,
  PDFName,
  PDFRawStream,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  type Color,
  type PDFPage,
} from 'pdf-lib';
import { mailIntl } from '../../platform/mail/compose';
import { formatEventStart } from '../../platform/mail/formats';
import { mailMessages } from '../../platform/mail/messages';
import { shorten, shownMax } from '../../platform/mail/shown-text';
import { drawRun, prepareFonts, runWidth, type FontSet } from './pdf-fonts';
import { darkRuns, ticketQrModules } from './ticket-qr';

export interface TicketPdfInput {
  /** The language of the words on the tickets. */
  locale: Locale;
  event: { title: string; venue: string; startsAt: Date; timeZone: string };
  /** The organization whose event it is: its name heads each page, beside its logo (else Admit's wordmark). */
  organizer?: string;
  /** The event's cover and the organization's logo as JPEG bytes, drawn at the top of each page. */
  pictures?: { cover: Uint8Array | null; logo: Uint8Array | null };
  /** Printed small at the bottom of each page ("Order 1A2B3C4D"), for support questions. */
  orderReference: string;
  tickets: {
    code: string;
    holderName: string;
    ticketTypeName: string;
    /** What it cost, its code's discount already taken off (minor units of `currency`), and that code. */
    price: number;
    discount: number;
    discountCode: string | null;
    currency: string;
  }[];
}

// A4 in points, and the colours of the emails.
const pageSize: [number, number] = [595.28, 841.89];
const margin = 56;
const ink = rgb(0.129, 0.145, 0.161);
const muted = rgb(0.525, 0.557, 0.588);
const brand = rgb(0.11, 0.494, 0.839);
const rule = rgb(0.914, 0.925, 0.937);

/** Text with the thin and narrow spaces Intl puts in times and amounts, and runs of spaces, as one space. */
const normalized = (text: string) =>
  text
    .replace(/[\u2000-\u200a\u202f\u205f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Breaks text into at most `maxLines` lines no wider than `width`. A word wider than a line (or a
 * Japanese sentence, which has no spaces) is split where the line is full, starting on the line it
 * comes to; text that needs more lines ends the last one shown with "…". It stops measuring once it
 * has one line more than it shows, so its work follows what is shown, not the text's length.
 */
function wrap(fonts: FontSet, text: string, size: number, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const fits = (line: string) => fonts.width(line, size) <= width;
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
  let last = Array.from(shown[maxLines - 1]!);
  while (last.length > 0 && !fits(`${last.join('')}…`)) last = last.slice(0, -1);
  shown[maxLines - 1] = `${last.join('').trimEnd()}…`;
  return shown;
}

/** Draws one line from `x` (its left end) in the fonts its characters need. */
function drawRuns(page: PDFPage, fonts: FontSet, line: string, at: { x: number; y: number; size: number; color: Color }) {
  let x = at.x;
  for (const run of fonts.runs(line)) {
    drawRun(page, run, { ...at, x });
    x += runWidth(run, at.size);
  }
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
 * What a ticket cost, as its page says it ("Price: €27.00 · Code TEAM10: €3.00 off"); nothing for a
 * free ticket without a code.
 */
function priceLine(intl: ReturnType<typeof mailIntl>, locale: Locale, ticket: TicketPdfInput['tickets'][number]): string {
  const parts = [];
  if (ticket.price > 0)
    parts.push(intl.formatMessage(mailMessages.ticketPdfPrice, { price: formatMoney(locale, ticket.price, ticket.currency) }));
  if (ticket.discountCode && ticket.discount > 0)
    parts.push(
      intl.formatMessage(mailMessages.ticketPdfDiscount, {
        code: ticket.discountCode,
        discount: formatMoney(locale, ticket.discount, ticket.currency),
      }),
    );
  else if (ticket.discountCode) parts.push(intl.formatMessage(mailMessages.ticketPdfCode, { code: ticket.discountCode }));
  return parts.join(' · ');
}

/**
 * One page per ticket: event, when (in the event's zone), venue, ticket type, holder, its price, the QR code
 * and the code in text. Pass only the tickets that admit someone (status 'valid').
 */
export async function ticketsPdf(input: TicketPdfInput): Promise<Uint8Array> {
  const intl = mailIntl(input.locale);
  // Shortened before anything else reads them: a stored name or title may be of any length.
  const title = normalized(shorten(input.event.title, shownMax.title));
  const venue = normalized(shorten(input.event.venue, shownMax.venue));
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
  const mono = await pdf.embedFont(StandardFonts.Courier);

  const width = pageSize[0] - 2 * margin;
  const direction = directionOf(input.locale);
  const rtl = direction === 'rtl';
  const when = normalized(formatEventStart(input.locale, input.event.startsAt, input.event.timeZone));
  const atTheDoor = normalized(intl.formatMessage(mailMessages.ticketPdfAtTheDoor));
  const reference = normalized(intl.formatMessage(mailMessages.orderReference, { reference: input.orderReference }));
  const wordmark = normalized(shorten(input.organizer ?? '', shownMax.title)) || 'Admit';
  const pages = input.tickets.map((ticket, index) => ({
    code: ticket.code,
    type: normalized(shorten(ticket.ticketTypeName, shownMax.title)),
    holder: normalized(
      intl.formatMessage(mailMessages.orderTicketHolder, { name: shorten(ticket.holderName, shownMax.personName) }),
    ),
    position: normalized(intl.formatMessage(mailMessages.ticketPdfPosition, { index: index + 1, count: input.tickets.length })),
    price: normalized(priceLine(intl, input.locale, ticket)),
  }));
  const texts = [
    wordmark,
    title,
    when,
    venue,
    atTheDoor,
    reference,
    ...pages.flatMap((page) => [page.type, page.holder, page.position, page.price]),
  ];
  const regular = await prepareFonts(pdf, texts, { bold: false, direction });
  const bold = await prepareFonts(pdf, texts, { bold: true, direction });

  for (const ticket of pages) {
    const page = pdf.addPage(pageSize);
    let y = pageSize[1] - margin;
    /** Lines start at the left margin, or end at the right one in a right-to-left language. */
    const lineX = (fonts: FontSet, line: string, size: number) => (rtl ? margin + width - fonts.width(line, size) : margin);
    const write = (text: string, options: { fonts: FontSet; size: number; color?: Color; gap?: number; maxLines?: number }) => {
      for (const line of wrap(options.fonts, text, options.size, width, options.maxLines)) {
        y -= options.size;
        drawRuns(page, options.fonts, line, {
          x: lineX(options.fonts, line, options.size),
          y,
          size: options.size,
          color: options.color ?? ink,
        });
        y -= options.size * 0.35;
      }
      y -= options.gap ?? 0;
    };

    // The organization's name and logo at the start of the top line, "Ticket 1 of 3" at its end.
    const logoSize = logo ? 28 : 0;
    const wordmarkWidth = logoSize + (logo ? 10 : 0) + bold.width(wordmark, 20);
    const start = rtl ? pageSize[0] - margin - wordmarkWidth : margin;
    if (logo) page.drawImage(logo, { x: start, y: y - logoSize + 4, width: logoSize, height: logoSize });
    drawRuns(page, bold, wordmark, { x: start + (logo ? logoSize + 10 : 0), y: y - 20, size: 20, color: brand });
    const positionX = rtl ? margin : pageSize[0] - margin - regular.width(ticket.position, 11);
    drawRuns(page, regular, ticket.position, { x: positionX, y: y - 18, size: 11, color: muted });
    y -= 56;
    if (cover) {
      // Across the page, at most 120 points high: the QR code keeps its place on the page.
      const height = Math.min(120, (width * cover.height) / cover.width);
      const drawn = { width: (height * cover.width) / cover.height, height };
      page.drawImage(cover, { x: margin + (width - drawn.width) / 2, y: y - drawn.height, ...drawn });
      y -= drawn.height + 16;
    }

    write(title, { fonts: bold, size: 24, gap: 10, maxLines: 3 });
    write(when, { fonts: regular, size: 13, gap: 4 });
    write(venue, { fonts: regular, size: 13, gap: 16, maxLines: 3 });
    page.drawLine({ start: { x: margin, y }, end: { x: margin + width, y }, thickness: 1, color: rule });
    y -= 24;
    write(ticket.type, { fonts: bold, size: 18, gap: 4, maxLines: 2 });
    write(ticket.holder, { fonts: regular, size: 14, gap: ticket.price ? 4 : 16, maxLines: 2 });
    if (ticket.price) write(ticket.price, { fonts: regular, size: 11, color: muted, gap: 12, maxLines: 2 });

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
    write(atTheDoor, { fonts: regular, size: 11, color: muted });

    drawRuns(page, regular, reference, { x: lineX(regular, reference, 9), y: margin - 16, size: 9, color: muted });
  }

  // Without object streams: pdf-lib compresses them in JavaScript, a sixth of the PDF's time, for
  // a few hundred bytes. The pages and fonts are compressed by Node's zlib instead of pdf-lib's
  // JavaScript deflate (pako), a quarter of the PDF's time (decision 0068).
  await pdf.flush();
  deflateNatively(pdf);
  return pdf.save({ useObjectStreams: false });
}

/** Each stream pdf-lib would deflate itself as the same stream already deflated (same dictionary, `/FlateDecode`). */
function deflateNatively(pdf: PDFDocument) {
  for (const [ref, object] of pdf.context.enumerateIndirectObjects())
    if (object instanceof PDFFlateStream && object.dict.get(PDFName.of('Filter')) === PDFName.of('FlateDecode'))
      pdf.context.assign(ref, PDFRawStream.of(object.dict, deflateSync(object.getUnencodedContents())));
}
