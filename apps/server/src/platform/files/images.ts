import { createHash, randomBytes } from 'node:crypto';
import type { Metadata } from 'sharp';
import type { FileVariant } from './schema';

// An uploaded image, checked by its content and re-encoded: never stored or served as sent.
// Decision 0037.

/** What an upload is refused for: the `reason` in the 4xx answer. */
export type ImageRefusal = 'too-large' | 'not-an-image' | 'unsupported-type' | 'too-many-pixels' | 'damaged';

export class ImageRefused extends Error {
  constructor(
    readonly reason: ImageRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ImageRefused';
  }
}

/** The formats taken, by what the bytes are (sharp reads the signature, not the name or the declared type). */
const accepted = new Set(['jpeg', 'png', 'webp', 'heif']);
/** Widths made for `srcset`; never wider than the original. */
export const variantWidths = [400, 800, 1600] as const;

export interface ProcessedImage {
  contentHash: string;
  width: number;
  height: number;
  /** Each variant's bytes, to be stored under its key. */
  variants: (FileVariant & { body: Buffer; contentType: string })[];
}

/**
 * Checks an upload and makes its variants: WebP and a JPEG fallback at each width up to the
 * original's, turned upright by its EXIF orientation, with every metadata block (EXIF with its GPS
 * position, XMP, IPTC, ICC beyond sRGB) left out. Throws ImageRefused for anything else.
 */
export async function processImage(upload: Buffer, limits: { maxBytes: number; maxPixels: number }): Promise<ProcessedImage> {
  if (upload.length > limits.maxBytes) throw new ImageRefused('too-large', `Larger than ${limits.maxBytes} bytes`);
  // Loaded with the first image rather than as each process starts: few ever handle one.
  const { default: sharp } = await import('sharp');
  let metadata: Metadata;
  try {
    metadata = await sharp(upload, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused('not-an-image', 'Not an image');
  }
  // AVIF is HEIF with the AV1 codec; HEIC (HEVC) is not taken: browsers do not show it.
  if (!metadata.format || !accepted.has(metadata.format) || (metadata.format === 'heif' && metadata.compression !== 'av1'))
    throw new ImageRefused('unsupported-type', `Not JPEG, PNG, WebP or AVIF (${metadata.format ?? 'unknown'})`);
  const { width = 0, height = 0 } = metadata;
  // Read from the header: a 50,000 × 50,000 PNG of a few kilobytes is refused before it is decoded.
  if (width * height > limits.maxPixels || width === 0 || height === 0)
    throw new ImageRefused('too-many-pixels', `${width} × ${height} is more than ${limits.maxPixels} pixels`);

  const contentHash = createHash('sha256').update(upload).digest('hex');
  // Named for this upload alone, not by its content: two file rows with the same bytes (the same
  // cover uploaded again with another focal point, or by another organization) never share an
  // object, so deleting one never blanks the other (decision 0037).
  const name = randomBytes(12).toString('hex');
  const upright = metadata.orientation && metadata.orientation >= 5 ? { width: height, height: width } : { width, height };
  const widths: number[] = variantWidths.filter((one) => one < upright.width);
  if (widths.length < variantWidths.length) widths.push(Math.min(upright.width, variantWidths.at(-1)!));
  try {
    const variants = [];
    for (const target of [...new Set(widths)]) {
      const base = sharp(upload, { limitInputPixels: limits.maxPixels, failOn: 'error' })
        .rotate()
        .resize({ width: target, withoutEnlargement: true });
      for (const format of ['webp', 'jpeg'] as const) {
        const { data, info } = await (
          format === 'webp'
            ? base.clone().webp({ quality: 80 })
            : base.clone().flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true })
        ).toBuffer({ resolveWithObject: true });
        variants.push({
          width: info.width,
          height: info.height,
          format,
          key: `images/${name}-${info.width}.${format === 'webp' ? 'webp' : 'jpg'}`,
          bytes: data.length,
          body: data,
          contentType: format === 'webp' ? 'image/webp' : 'image/jpeg',
        });
      }
    }
    return { contentHash, width: upright.width, height: upright.height, variants };
  } catch (error) {
    if (error instanceof ImageRefused) throw error;
    // Truncated or corrupt data: sharp stops at the first error (failOn: 'error').
    throw new ImageRefused('damaged', 'The image is damaged or incomplete');
  }
}
