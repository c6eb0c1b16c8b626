import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn } from '../../testing/s3-stand-in';
import { hugePng, photoWithLocation } from '../../testing/images';
import { ImageRefused, processImage } from './images';
import { createS3Storage } from './s3-storage';
import { createLocalStorage, type FileStorage } from './storage';

// The storage drivers run the same cases: the local disk, and S3 through the real AWS SDK against
// a local S3-compatible server. Then the image pipeline: variants, metadata, hostile files.

const drivers: [string, () => Promise<{ storage: FileStorage; close(): Promise<void> }>][] = [
  [
    'local disk',
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'admit-files-'));
      return { storage: createLocalStorage(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    'S3 (s3rver through @aws-sdk/client-s3)',
    async () => {
      const standIn = await startS3StandIn();
      return { storage: createS3Storage(standIn.settings), close: () => standIn.close() };
    },
  ],
];

describe.each(drivers)('file storage on %s', (_name, open) => {
  let storage: FileStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await open());
  });
  afterAll(() => close?.());

  it('stores, reads back and deletes an object; a missing one reads as null', async () => {
    await storage.put('images/abc-400.webp', Buffer.from('hello'), 'image/webp');
    const found = await storage.get('images/abc-400.webp');
    expect(found?.bytes).toBe(5);
    expect(await text(found!.body)).toBe('hello');

    await storage.delete(['images/abc-400.webp', 'images/never-there.jpg']);
    expect(await storage.get('images/abc-400.webp')).toBeNull();
  });

  it('refuses a key that could leave its folder', async () => {
    await expect(storage.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow('Not a storage key');
    await expect(storage.get('images/../../secret')).rejects.toThrow('Not a storage key');
  });
});

describe('uploaded images', () => {
  const limits = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 };

  it('makes WebP and JPEG variants at 400, 800 and 1600 px, upright, with no metadata left', async () => {
    const upload = await photoWithLocation(2000, 1000);
    expect((await sharp(upload).metadata()).exif).toBeDefined();

    const processed = await processImage(upload, limits);

    expect(processed).toMatchObject({ width: 2000, height: 1000 });
    expect(processed.variants.map((one) => `${one.width}x${one.height}.${one.format}`)).toEqual([
      '400x200.webp',
      '400x200.jpeg',
      '800x400.webp',
      '800x400.jpeg',
      '1600x800.webp',
      '1600x800.jpeg',
    ]);
    for (const variant of processed.variants) {
      const read = await sharp(variant.body).metadata();
      expect(read.format).toBe(variant.format);
      expect([read.exif, read.xmp, read.iptc]).toEqual([undefined, undefined, undefined]);
      expect(variant.key).toMatch(/^images\/[0-9a-f]{24}-\d+\.(webp|jpg)$/);
    }
  });

  it('names the variants of every upload apart, even of the same bytes, so no two file rows share an object', async () => {
    const upload = await photoWithLocation(900, 600);
    const [first, second] = [await processImage(upload, limits), await processImage(upload, limits)];
    expect(first.contentHash).toBe(second.contentHash);
    const firstKeys = new Set(first.variants.map((variant) => variant.key));
    expect(second.variants.filter((variant) => firstKeys.has(variant.key))).toEqual([]);
  });

  it('never enlarges a small picture', async () => {
    const small = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const processed = await processImage(small, limits);
    expect(processed.variants.map((one) => one.width)).toEqual([300, 300]);
  });

  const refusedFor = (upload: Buffer, overrides: Partial<typeof limits> = {}) =>
    processImage(upload, { ...limits, ...overrides }).then(
      () => 'accepted',
      (error: unknown) => (error instanceof ImageRefused ? error.reason : `threw ${String(error)}`),
    );

  it('refuses hostile and wrong files with a reason, before decoding what it need not decode', async () => {
    const jpeg = await photoWithLocation(800, 600);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

    expect(await refusedFor(Buffer.from('%PDF-1.7 not a picture'))).toBe('not-an-image');
    expect(await refusedFor(gif)).toBe('unsupported-type');
    expect(await refusedFor(svg)).toBe('unsupported-type');
    expect(await refusedFor(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toBe('damaged');
    expect(await refusedFor(jpeg, { maxBytes: 1000 })).toBe('too-large');
    expect(await refusedFor(hugePng(50_000, 50_000))).toBe('too-many-pixels');
  });

  it('re-encodes a polyglot file, so whatever rode along is not in what is stored', async () => {
    const jpeg = await photoWithLocation(400, 300);
    const polyglot = Buffer.concat([jpeg, Buffer.from('<html><script>alert(1)</script></html>PK\u0003\u0004')]);
    const processed = await processImage(polyglot, limits);
    for (const variant of processed.variants) expect(variant.body.includes('<script>')).toBe(false);
  });
});
