import { execFileSync } from 'node:child_process';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFObject } from 'pdf-lib';

/**
 * The pages of a PDF with the text drawn on each, for tests: pdf-lib writes text in the standard
 * fonts as hex strings of Windows-1252 bytes inside compressed content streams, so this inflates
 * each page's streams and turns every `<hex> Tj` back into words.
 */
export async function pdfPagesText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const decoded = (object: PDFObject | undefined) =>
    object instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(object).decode()).toString('latin1') : '';
  return pdf.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents as PDFObject];
    const operators = streams.map(decoded).join('\n');
    return [...operators.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)]
      .map(([, hex]) => Buffer.from(hex!, 'hex').toString('latin1'))
      .join('\n');
  });
}

/** A word Poppler reads on a PDF page, with its box in points from the page's top left. */
export interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Unicode's invisible direction marks, which Poppler puts around right-to-left text. */
const directionMarks = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The words of a PDF's first page as Poppler's pdftotext reads them (the Unicode each glyph stands
 * for, Arabic put back in reading order), with where each is drawn. Needs poppler-utils.
 */
export function pdfWords(bytes: Uint8Array): PdfWord[] {
  const xhtml = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-', '-'], { input: bytes, encoding: 'utf8' });
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return [...xhtml.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
    ([, xMin, yMin, xMax, yMax, text]) => ({
      text: text!.replace(/&(\w+);/g, (_, name: string) => entities[name] ?? '').replace(directionMarks, ''),
      xMin: Number(xMin),
      yMin: Number(yMin),
      xMax: Number(xMax),
      yMax: Number(yMax),
    }),
  );
}

/** The text of a PDF's pages as pdftotext reads it, without direction marks. Needs poppler-utils. */
export function pdfText(bytes: Uint8Array): string {
  return execFileSync('pdftotext', ['-', '-'], { input: bytes, encoding: 'utf8' }).replace(directionMarks, '');
}

/**
 * The share of inked pixels (darker than light grey) inside a box of the first page (points from the top left), rendered by
 * Poppler's pdftoppm at 72 dpi in grey: a word whose glyphs the font cannot draw has a box and
 * Unicode, but no ink. Needs poppler-utils.
 */
export function inkIn(bytes: Uint8Array, box: Pick<PdfWord, 'xMin' | 'yMin' | 'xMax' | 'yMax'>): number {
  const pgm = execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-gray', '-'], { input: bytes });
  // A binary PGM: "P5", width, height, maximum value, one whitespace, then one byte per pixel.
  const header = pgm
    .subarray(0, 64)
    .toString('latin1')
    .match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header) throw new Error('pdftoppm did not write a PGM image');
  const [whole, width] = [header[0], Number(header[1])];
  const pixels = pgm.subarray(whole.length);
  let dark = 0;
  let all = 0;
  for (let y = Math.floor(box.yMin); y < Math.ceil(box.yMax); y++)
    for (let x = Math.floor(box.xMin); x < Math.ceil(box.xMax); x++) {
      all++;
      if (pixels[y * width + x]! < 200) dark++;
    }
  return all === 0 ? 0 : dark / all;
}
