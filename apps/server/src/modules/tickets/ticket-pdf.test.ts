import { locales, type Locale } from '@admit/shared/locales';
import { describe, expect, it } from 'vitest';
import { mailIntl } from '../../platform/mail/compose';
import { mailMessages } from '../../platform/mail/messages';
import { inkIn, pdfText, pdfWords } from '../../testing/pdf-text';
import { ticketsPdf } from './ticket-pdf';

// The ticket PDF in each of Admit's languages, read back with Poppler: pdftotext for the words
// (the Unicode behind each glyph) and where they are, pdftoppm for the ink (a glyph the PDF's font
// cannot draw has Unicode but leaves the page white).

const code = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ12';
const content: Record<Locale, { title: string; venue: string; type: string; holder: string }> = {
  en: { title: 'Jazz night', venue: 'Club Blau', type: 'Standing', holder: 'Bob Buyer' },
  de: { title: 'Jazznacht', venue: 'Club Blau', type: 'Stehplatz', holder: 'Jürgen Groß' },
  fr: { title: 'Soirée jazz', venue: 'Salle Pleyel', type: 'Debout', holder: 'Zoé Lefèvre' },
  es: { title: 'Noche de jazz', venue: 'Sala Clamores', type: 'De pie', holder: 'Iñigo Núñez' },
  ja: { title: '夏のジャズナイト', venue: '東京・ブルーノート', type: '自由席', holder: '山田 花子' },
  ar: { title: 'أمسية العود في دبي', venue: 'دار الأوبرا، دبي', type: 'دخول عام', holder: 'ليلى منصور' },
};

const pdfIn = (locale: Locale, tickets = 1) =>
  ticketsPdf({
    locale,
    event: {
      title: content[locale].title,
      venue: content[locale].venue,
      startsAt: new Date('2030-07-10T15:00:00Z'),
      timeZone: 'Asia/Dubai',
    },
    orderReference: '1A2B-3C4D',
    tickets: Array.from({ length: tickets }, (_, index) => ({
      code: `${code.slice(0, -2)}${index}${index}`,
      holderName: content[locale].holder,
      ticketTypeName: content[locale].type,
      price: 2700,
      discount: 300,
      discountCode: 'TEAM10',
      currency: 'EUR',
    })),
  });

const free = { price: 0, discount: 0, discountCode: null, currency: 'EUR' };

/** Words without the punctuation Poppler leaves on them ("الأوبرا،", "(live)"). */
const bare = (word: string) => word.replace(/[.,،()]/g, '');

/** The words of a phrase found on the page, and the box around them all; null when one is missing. */
function phraseBox(words: ReturnType<typeof pdfWords>, phrase: string) {
  const found = phrase.split(' ').map((part) => words.find((word) => bare(word.text).includes(bare(part))));
  if (found.some((word) => word === undefined)) return null;
  return {
    xMin: Math.min(...found.map((word) => word!.xMin)),
    xMax: Math.max(...found.map((word) => word!.xMax)),
    yMin: Math.min(...found.map((word) => word!.yMin)),
    yMax: Math.max(...found.map((word) => word!.yMax)),
  };
}

describe('the ticket PDF', () => {
  it.each(locales)(
    'is written in %s with the event, the ticket type, the holder and the code, each drawn in ink',
    async (locale) => {
      const bytes = await pdfIn(locale, 2);
      const intl = mailIntl(locale);
      const { title, venue, type, holder } = content[locale];
      const position = intl.formatMessage(mailMessages.ticketPdfPosition, { index: 1, count: 2 }).replace(/[\u2068\u2069]/g, '');
      // Each word where Poppler finds it (Japanese has no spaces: a phrase may be one word there).
      const words = pdfWords(bytes);
      for (const phrase of [title, venue, type, holder, position, `${code.slice(0, -2)}00`]) {
        const box = phraseBox(words, phrase);
        expect(box, phrase).not.toBeNull();
        expect(inkIn(bytes, box!), `ink of ${phrase}`).toBeGreaterThan(0.01);
      }
      expect(pdfText(bytes)).not.toContain('?');
    },
  );

  it('sets Arabic lines against the right margin and Japanese ones against the left', async () => {
    const pageWidth = 595.28;
    const margin = 56;
    const arabic = pdfWords(await pdfIn('ar'));
    const title = phraseBox(arabic, content.ar.title)!;
    expect(title.xMax).toBeCloseTo(pageWidth - margin, 0);
    expect(title.xMin).toBeGreaterThan(pageWidth / 2);
    const japanese = pdfWords(await pdfIn('ja'));
    const titleJa = japanese.find((word) => word.text.includes('夏のジャズナイト'))!;
    expect(titleJa.xMin).toBeCloseTo(margin, 0);
  });

  it('keeps a Latin title and a code in their own order inside an Arabic page', async () => {
    const bytes = await ticketsPdf({
      locale: 'ar',
      event: {
        title: 'Jazz night (live)',
        venue: 'Club Blau, Berlin',
        startsAt: new Date('2030-07-10T15:00:00Z'),
        timeZone: 'Europe/Berlin',
      },
      orderReference: '1A2B-3C4D',
      tickets: [{ code, holderName: 'Bob Buyer', ticketTypeName: 'Standing', ...free }],
    });
    // Left to right on the page, whatever the Arabic around them.
    const words = pdfWords(bytes);
    const order = (phrase: string) =>
      phrase.split(' ').map((part) => words.find((word) => word.text === part)?.xMin ?? Number.NaN);
    for (const phrase of ['Jazz night (live)', 'Club Blau,', 'Bob Buyer']) {
      const xs = order(phrase);
      expect(xs.every(Number.isFinite), phrase).toBe(true);
      expect(
        [...xs].sort((a, b) => a - b),
        phrase,
      ).toEqual(xs);
    }
    expect(words.map((word) => word.text)).toContain('1A2B-3C4D');
  });

  it('writes a character no font has, such as an emoji, as a question mark instead of failing', async () => {
    const bytes = await ticketsPdf({
      locale: 'en',
      event: { title: 'Party 🎉 night', venue: 'Club', startsAt: new Date('2030-07-10T15:00:00Z'), timeZone: 'UTC' },
      orderReference: '1A2B-3C4D',
      tickets: [{ code, holderName: 'Bob', ticketTypeName: 'Standing', ...free }],
    });
    expect(pdfText(bytes)).toContain('Party ? night');
    // A free ticket without a code has no price line.
    expect(pdfText(bytes)).not.toContain('Price');
  });

  it('prints what a ticket cost and its code’s discount, as the order did', async () => {
    const text = pdfText(await pdfIn('en')).replace(/\s+/g, ' ');
    expect(text).toContain('Price: €27.00 · Code TEAM10: €3.00 off');
  });
});
