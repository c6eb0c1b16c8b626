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
