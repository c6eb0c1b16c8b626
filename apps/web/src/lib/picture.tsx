import type { Picture } from '@admit/shared/files';
import type { CSSProperties } from 'react';

const aspects = { wide: '16 / 9', square: '1 / 1' } as const;

/**
 * An uploaded picture at the size the screen needs: WebP for browsers that take it, JPEG for the
 * rest, chosen from `srcset` by `sizes`. Its box has the picture's proportions (or the crop's)
 * before a byte arrives, so nothing on the page moves when it loads; a crop keeps the focal point
 * in view.
 */
export function ResponsivePicture({
  picture,
  alt,
  sizes,
  crop,
  style,
  priority = false,
}: {
  picture: Picture;
  alt: string;
  /** As in `<img sizes>`: how wide the picture is shown, e.g. `(min-width: 62em) 58vw, 100vw`. */
  sizes: string;
  crop?: keyof typeof aspects;
  style?: CSSProperties;
  /** The page's main picture: loaded at once, not lazily. */
  priority?: boolean;
}) {
  const of = (format: 'webp' | 'jpeg') =>
    picture.variants
      .filter((variant) => variant.format === format)
      .map((variant) => `${variant.url} ${variant.width}w`)
      .join(', ');
  const jpegs = picture.variants.filter((variant) => variant.format === 'jpeg');
  const fallback = jpegs.find((variant) => variant.width >= 800) ?? jpegs.at(-1);
  return (
    <picture>
      <source type="image/webp" srcSet={of('webp')} sizes={sizes} />
      <img
        src={fallback?.url}
        srcSet={of('jpeg')}
        sizes={sizes}
        alt={alt}
        width={picture.width}
        height={picture.height}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
        style={{
          display: 'block',
          width: '100%',
          height: 'auto',
          aspectRatio: crop ? aspects[crop] : `${picture.width} / ${picture.height}`,
          objectFit: 'cover',
          objectPosition: `${picture.focalX * 100}% ${picture.focalY * 100}%`,
          ...style,
        }}
      />
    </picture>
  );
}
