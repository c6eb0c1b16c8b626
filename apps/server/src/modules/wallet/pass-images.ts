// The pictures of an Apple Wallet pass, as PNG at one, two and three times a phone's pixels: the
// icon (required: notifications and the lock screen show it) and the logo (top left of the pass).
// Both are made from the organization's logo; without one, the icon is a plain square in Admit's
// blue and the pass shows the organizer's name in place of a logo (its `logoText`). sharp is loaded
// with the first pass, not as each process starts.

/** Admit's blue, as in the emails and the PDF. */
const brandBlue = { r: 28, g: 126, b: 214, alpha: 1 };
const white = { r: 255, g: 255, b: 255, alpha: 1 };
const scales = [1, 2, 3] as const;

/** `icon.png`, `icon@2x.png`… the files' names for each scale. */
const named = (name: string, scale: number) => (scale === 1 ? `${name}.png` : `${name}@${scale}x.png`);

let plainIcons: Promise<Record<string, Buffer>> | undefined;

/** The plain icon, drawn once per process. */
function plainIconFiles(): Promise<Record<string, Buffer>> {
  plainIcons ??= import('sharp').then(async ({ default: sharp }) => {
    const files = await Promise.all(
      scales.map(async (scale) => {
        const size = 29 * scale;
        const png = await sharp({ create: { width: size, height: size, channels: 4, background: brandBlue } })
          .png()
          .toBuffer();
        return [named('icon', scale), png] as const;
      }),
    );
    return Object.fromEntries(files);
  });
  return plainIcons;
}

/**
 * The pass's icon and logo files from the logo's JPEG bytes (the icon 29 points square, the logo at
 * most 160 × 50), or the plain icon alone when there is no logo or it cannot be read.
 */
export async function passImageFiles(logoJpeg: Buffer | null): Promise<Record<string, Buffer>> {
  if (!logoJpeg) return { ...(await plainIconFiles()) };
  const { default: sharp } = await import('sharp');
  try {
    const files = await Promise.all(
      scales.flatMap((scale) => [
        sharp(logoJpeg)
          .resize(29 * scale, 29 * scale, { fit: 'contain', background: white })
          .png()
          .toBuffer()
          .then((png) => [named('icon', scale), png] as const),
        sharp(logoJpeg)
          .resize(160 * scale, 50 * scale, { fit: 'inside' })
          .png()
          .toBuffer()
          .then((png) => [named('logo', scale), png] as const),
      ]),
    );
    return Object.fromEntries(files);
  } catch {
    // A logo sharp cannot read (a variant damaged in storage) costs the pass its logo, not the pass.
    return { ...(await plainIconFiles()) };
  }
}
