import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { newTicketCode } from './ticket-code';
import { ticketQrPng } from './ticket-qr';

const checkinKey = randomBytes(32).toString('base64url');

// The reader's WebAssembly from the installed package (by default it would fetch it from a CDN).
prepareZXingModule({
  overrides: { wasmBinary: readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer },
});

describe("a ticket's QR code image", () => {
  it('is a PNG that a barcode reader reads back as the ticket code', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = newTicketCode(checkinKey);
      const [found, ...others] = await readBarcodes(new Uint8Array(ticketQrPng(code)), { formats: ['QRCode'] });
      expect(found?.text).toBe(code);
      expect(others).toEqual([]);
    }
  });

  it('is at most as wide as asked, square, with a white quiet zone of four whole-pixel modules', () => {
    const image = PNG.sync.read(ticketQrPng(newTicketCode(checkinKey), 360));
    expect(image.width).toBe(image.height);
    expect(image.width).toBeGreaterThan(300);
    expect(image.width).toBeLessThanOrEqual(360);
    const grey = (x: number, y: number) => image.data[(y * image.width + x) * 4]!;
    for (let i = 0; i < image.width; i++) expect([grey(i, 0), grey(0, i)]).toEqual([255, 255]);
    // The finder pattern's corner is the first dark pixel on the diagonal: four modules in.
    let corner = 0;
    while (grey(corner, corner) === 255) corner++;
    const moduleWidth = corner / 4;
    expect(Number.isInteger(moduleWidth)).toBe(true);
    expect(image.width % moduleWidth).toBe(0);
  });
});
