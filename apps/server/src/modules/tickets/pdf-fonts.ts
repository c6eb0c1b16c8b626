import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import bidiFactory from 'bidi-js';
import {
  beginText,
  endText,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setLineWidth,
  setStrokingColor,
  setTextMatrix,
  setTextRenderingMode,
  showText,
  StandardFonts,
  TextRenderingMode,
  type Color,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import { decompress } from 'wawoff2';

// The ticket PDF writes in six languages. Latin text uses the standard PDF fonts (no font file in
// the PDF, Windows-1252 only); Arabic and Japanese text uses Noto Sans Arabic and Noto Sans JP, the
// web app's own fonts, embedded as subsets of the glyphs a ticket uses (decision 0041). fontkit
// shapes Arabic (each letter's joined form) and lays a right-to-left run out right to left; Unicode's
// bidirectional algorithm (bidi-js) orders the runs of a line that mixes directions (an Arabic
// sentence with a price or a code in it).

const require = createRequire(import.meta.url);
/** A font package's folder of files (its exports name only its CSS). */
const filesOf = (name: string) => path.join(path.dirname(require.resolve(name)), 'files');
const arabicFile = path.join(filesOf('@fontsource-variable/noto-sans-arabic'), 'noto-sans-arabic-arabic-wght-normal.woff2');
const japaneseFolder = filesOf('@fontsource-variable/noto-sans-jp');

/** The Unicode ranges of each of Noto Sans JP's files ("[12]": "U+4e00-4e10,…"), read once. */
let japaneseRanges: Promise<{ file: string; ranges: [number, number][] }[]> | undefined;
function japaneseFiles() {
  japaneseRanges ??= readFile(path.join(japaneseFolder, '..', 'unicode.json'), 'utf8').then((json) =>
    Object.entries(JSON.parse(json) as Record<string, string>).map(([key, list]) => ({
      file: path.join(japaneseFolder, `noto-sans-jp-${key.replace(/[[\]]/g, '')}-wght-normal.woff2`),
      ranges: list.split(',').map((range) => {
        const [from, to = from] = range.trim().replace(/^U\+/i, '').split('-');
        return [Number.parseInt(from!, 16), Number.parseInt(to!, 16)] as [number, number];
      }),
    })),
  );
  return japaneseRanges;
}

/**
 * A font file as TrueType, read and unpacked once per process (a few hundred kilobytes each). The
 * files are WOFF2, made for browsers: fontkit reads them but cannot cut a subset out of one, so
 * Google's WOFF2 decoder (wawoff2) turns each back into the TrueType font it was made from.
 */
const fileCache = new Map<string, Promise<Uint8Array>>();
const fontBytes = (file: string) => {
  let bytes = fileCache.get(file);
  if (!bytes) {
    // Copied out of the decoder's WebAssembly memory, which its next call writes over.
    bytes = readFile(file).then(async (woff2) => Uint8Array.from(await decompress(woff2)));
    fileCache.set(file, bytes);
  }
  return bytes;
};

const arabicScript = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/u;
const isWide = (codePoint: number) => codePoint > 0x2e7f;

/** One piece of a line drawn in one font, in the order it is drawn from left to right. */
export interface Run {
  font: PDFFont;
  text: string;
  /**
   * The width of an outline drawn round the letters, in ems, to make up the weight the font file
   * lacks: the variable fonts are embedded at their default weight (Noto Sans JP's is its thinnest),
   * as neither pdf-lib nor fontkit can cut a weight out of them. 0 for none.
   */
  embolden: number;
  /**
   * For an embedded font, where each glyph goes: fontkit's layout, with the offsets that put a
   * mark (an Arabic letter's dots, a vowel sign) over or under its letter. pdf-lib's own drawText
   * writes glyphs one after the other and drops those offsets.
   */
  shaper?: FontkitFont;
}

type FontkitFont = ReturnType<typeof fontkit.create>;

/** The fonts of one weight, chosen per character. */
export interface FontSet {
  /** The runs of one line of text from left to right, each in a font that has its characters. */
  runs(text: string): Run[];
  width(text: string, size: number): number;
}

const bidi = bidiFactory();

/**
 * The fonts a PDF needs to write `texts`: the standard font of the weight for what Windows-1252
 * has, Noto Sans Arabic for Arabic, the files of Noto Sans JP that hold the Japanese characters
 * used. Characters none of them has are written as "?". `direction` is the document's: the base
 * direction of every line.
 */
export async function prepareFonts(
  pdf: PDFDocument,
  texts: string[],
  options: { bold: boolean; direction: 'ltr' | 'rtl' },
): Promise<FontSet> {
  const latin = await pdf.embedFont(options.bold ? StandardFonts.HelveticaBold : StandardFonts.Helvetica);
  const latinSet = new Set(latin.getCharacterSet());
  const needed = new Set<number>();
  for (const text of texts) for (const char of text) needed.add(char.codePointAt(0)!);
  const foreign = [...needed].filter((codePoint) => !latinSet.has(codePoint));

  const fonts: { font: PDFFont; embolden: number; shaper: FontkitFont; has(codePoint: number): boolean }[] = [];
  if (foreign.length > 0) pdf.registerFontkit(fontkit);
  if (foreign.some((codePoint) => arabicScript.test(String.fromCodePoint(codePoint)))) {
    const bytes = await fontBytes(arabicFile);
    const font = await pdf.embedFont(bytes, { subset: true });
    const shaper = fontkit.create(Buffer.from(bytes));
    // Regular at its default weight; bold drawn with an outline.
    fonts.push({
      font,
      shaper,
      embolden: options.bold ? 0.035 : 0,
      has: (codePoint) => shaper.hasGlyphForCodePoint(codePoint),
    });
  }
  const wide = foreign.filter(isWide);
  if (wide.length > 0) {
    for (const { file, ranges } of await japaneseFiles()) {
      const inFile = (codePoint: number) => ranges.some(([from, to]) => codePoint >= from && codePoint <= to);
      if (!wide.some(inFile)) continue;
      const bytes = await fontBytes(file);
      const font = await pdf.embedFont(bytes, { subset: true });
      // Thin at its default weight: an outline brings it to regular or bold.
      fonts.push({ font, shaper: fontkit.create(Buffer.from(bytes)), embolden: options.bold ? 0.09 : 0.045, has: inFile });
    }
  }

  const standard: { font: PDFFont; embolden: number; shaper?: FontkitFont } = { font: latin, embolden: 0 };
  /** The font for a character: the standard font when it can, else the first that has it. */
  const fontFor = (codePoint: number) =>
    latinSet.has(codePoint) ? standard : (fonts.find((candidate) => candidate.has(codePoint)) ?? null);
  /** Unicode's invisible direction marks and isolates: they steer the order, and are not drawn. */
  const invisible = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

  /** Whether every character is one of the standard font's (Windows-1252 has no right-to-left letter). */
  const allLatin = (text: string) => {
    for (let index = 0; index < text.length; index++) if (!latinSet.has(text.charCodeAt(index))) return false;
    return true;
  };

  function runs(text: string): Run[] {
    if (text === '') return [];
    // Most lines of most tickets: left to right and all in the standard font, one run as it is.
    if (options.direction === 'ltr' && allLatin(text)) return [{ ...standard, text }];
    const levels = bidi.getEmbeddingLevels(text, options.direction);
    const mirrored = bidi.getMirroredCharactersMap(text, levels.levels);
    // The string's indices (UTF-16) in the order they are seen from left to right.
    const visual = Array.from({ length: text.length }, (_, index) => index);
    for (const [start, end] of bidi.getReorderSegments(text, levels)) {
      const reversed = visual.slice(start, end + 1).reverse();
      visual.splice(start, reversed.length, ...reversed);
    }

    const result: (Run & { rtl: boolean })[] = [];
    for (const index of visual) {
      const code = text.charCodeAt(index);
      // A surrogate pair's second half goes with its first (Japanese beyond the basic plane).
      if (code >= 0xdc00 && code <= 0xdfff && index > 0) continue;
      const char = mirrored.get(index) ?? String.fromCodePoint(text.codePointAt(index)!);
      if (invisible.test(char)) continue;
      const found = fontFor(char.codePointAt(0)!);
      const { font, embolden, shaper } = found ?? standard;
      const shown = found ? char : '?';
      const rtl = (levels.levels[index]! & 1) === 1;
      const last = result.at(-1);
      if (last && last.font === font && last.rtl === rtl) last.text += shown;
      else result.push({ font, embolden, shaper, text: shown, rtl });
    }
    // A right-to-left run in an embedded font goes to fontkit in reading order: it joins the
    // letters and lays them out from the right itself.
    return result.map(({ rtl, ...run }) => ({
      ...run,
      text: rtl && run.font !== latin ? Array.from(run.text).reverse().join('') : run.text,
    }));
  }

  return {
    runs,
    width: (text, size) => runs(text).reduce((sum, run) => sum + runWidth(run, size), 0),
  };
}

/** How far a run reaches, with the advances fontkit's layout gives (kerning and joined forms included). */
export function runWidth(run: Run, size: number): number {
  if (!run.shaper) return run.font.widthOfTextAtSize(run.text, size);
  const { positions } = run.shaper.layout(run.text);
  const scale = size / run.shaper.unitsPerEm;
  return positions.reduce((sum, position) => sum + position.xAdvance * scale, 0);
}

/** Each page's name for each font it uses, made once. */
const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();
function fontKey(page: PDFPage, font: PDFFont): PDFName {
  let keys = fontKeys.get(page);
  if (!keys) fontKeys.set(page, (keys = new Map()));
  let key = keys.get(font);
  if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
  return key;
}

/**
 * Draws one run with its left end at (x, y). A run in a standard font is pdf-lib's drawText; a
 * run in an embedded font places each glyph where fontkit's layout puts it. pdf-lib's encodeText
 * lays the same text out with the same font (and adds its glyphs to the font's subset): its glyph
 * numbers come in the same order as fontkit's positions.
 */
export function drawRun(page: PDFPage, run: Run, at: { x: number; y: number; size: number; color: Color }) {
  const outline =
    run.embolden > 0
      ? [setTextRenderingMode(TextRenderingMode.FillAndOutline), setLineWidth(run.embolden * at.size), setStrokingColor(at.color)]
      : [];
  if (!run.shaper) {
    if (outline.length > 0) page.pushOperators(pushGraphicsState(), ...outline);
    page.drawText(run.text, { x: at.x, y: at.y, size: at.size, font: run.font, color: at.color });
    if (outline.length > 0) page.pushOperators(popGraphicsState());
    return;
  }
  const glyphIds = run.font.encodeText(run.text).asString();
  const { positions } = run.shaper.layout(run.text);
  if (glyphIds.length !== positions.length * 4) throw new Error('The font laid out the text differently twice');
  const scale = at.size / run.shaper.unitsPerEm;
  let pen = at.x;
  const glyphs = positions.flatMap((position, index) => {
    const placed = [
      setTextMatrix(1, 0, 0, 1, pen + position.xOffset * scale, at.y + position.yOffset * scale),
      showText(PDFHexString.of(glyphIds.slice(index * 4, index * 4 + 4))),
    ];
    pen += position.xAdvance * scale;
    return placed;
  });
  // The run's text in reading order goes with its glyphs (ActualText): a shaped Arabic letter's
  // glyph alone does not say which letter it is, and copying from the PDF or reading it aloud would
  // get the wrong one.
  const actualText = PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
    PDFName.of('Span'),
    // pdf-lib's operand type leaves dictionaries out, but writes one like any PDF object.
    page.doc.context.obj({ ActualText: PDFHexString.fromText(run.text) }) as unknown as PDFName,
  ]);
  page.pushOperators(
    pushGraphicsState(),
    setFillingColor(at.color),
    ...outline,
    actualText,
    beginText(),
    setFontAndSize(fontKey(page, run.font), at.size),
    ...glyphs,
    endText(),
    PDFOperator.of(PDFOperatorNames.EndMarkedContent),
    popGraphicsState(),
  );
}
