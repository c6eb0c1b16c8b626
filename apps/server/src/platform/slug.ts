import { randomBytes } from 'node:crypto';

/** A URL-safe slug from a title, with a short random suffix so that titles may repeat. */
export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const suffix = randomBytes(3).toString('hex');
  return base ? `${base}-${suffix}` : suffix;
}

const attempts = 5;

/**
 * Runs `create` with a new slug for `title`, and again with another when the database says the
 * slug is taken. Six random hex digits make a collision rare, not impossible: among a thousand
 * events of one title the chance is some 3 %, and the person creating one should never see "That
 * already exists" for a name they did not choose. `create` must insert in a transaction of its own,
 * so that a taken slug rolls back everything it did.
 */
export async function withFreshSlug<T>(
  title: string,
  create: (slug: string) => Promise<T>,
  newSlug: (title: string) => string = slugify,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create(newSlug(title));
    } catch (error) {
      if (attempt >= attempts || !isTakenSlug(error)) throw error;
    }
  }
}

/** A unique violation of a constraint on a `slug` column, as PostgreSQL and PGlite report it (Drizzle wraps it as the cause). */
function isTakenSlug(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' && constraint.includes('slug');
  }
  return false;
}
