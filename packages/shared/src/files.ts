import { z } from 'zod';

/**
 * An uploaded picture as live rows carry it: its variants (WebP and JPEG at several widths, for
 * `srcset`), its size (the page keeps its place while it loads) and its focal point (0..1), which
 * wide and square crops keep in view.
 */
export const Picture = z.object({
  width: z.number(),
  height: z.number(),
  focalX: z.number(),
  focalY: z.number(),
  variants: z.array(z.object({ url: z.string(), width: z.number(), height: z.number(), format: z.enum(['webp', 'jpeg']) })),
});
export type Picture = z.infer<typeof Picture>;

/** Why an upload was refused: the `reason` in the 400 answer's details. */
export const UploadRefusal = z.enum(['too-large', 'not-an-image', 'unsupported-type', 'too-many-pixels', 'damaged']);
export type UploadRefusal = z.infer<typeof UploadRefusal>;
