import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrgAs } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { organization } from './auth/organization-schema';
import { slugify, withFreshSlug } from './slug';

let t: TestApp;
/** The slug an organization already has. */
let taken: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.signUp('Olivia Owner');
  taken = (await createOrgAs(t, owner.cookie, 'Night Owls')).slug;
});
afterAll(() => t?.close());

/** Draws the given slugs in turn, counting the draws. */
function drawing(...slugs: string[]) {
  const draw = () => slugs[Math.min(draw.count++, slugs.length - 1)]!;
  draw.count = 0;
  return draw;
}

const insertOrganization = (id: string) => (slug: string) =>
  t.db.transaction(async (tx) => {
    await tx.insert(organization).values({ id, name: 'Night Owls', slug });
    return slug;
  });

describe('a fresh slug', () => {
  it('makes a readable slug from the title with a random suffix', () => {
    expect(slugify('Café Noir: Live!')).toMatch(/^cafe-noir-live-[0-9a-f]{6}$/);
    expect(slugify('!!!')).toMatch(/^[0-9a-f]{6}$/);
  });

  it('draws another slug when the database says the one drawn is taken', async () => {
    const draw = drawing(taken, 'night-owls-fresh');
    const id = randomUUID();
    await expect(withFreshSlug('Night Owls', insertOrganization(id), draw)).resolves.toBe('night-owls-fresh');
    expect(draw.count).toBe(2);
    const [row] = await t.db.select().from(organization).where(eq(organization.id, id));
    expect(row?.slug).toBe('night-owls-fresh');
  });

  it('gives up with the database’s error after five taken slugs', async () => {
    const draw = drawing(taken);
    await expect(withFreshSlug('Night Owls', insertOrganization(randomUUID()), draw)).rejects.toThrow();
    expect(draw.count).toBe(5);
  });

  it('does not draw again for a conflict that is not the slug', async () => {
    const [existing] = await t.db.select().from(organization).where(eq(organization.slug, taken));
    const draw = drawing('night-owls-another');
    await expect(withFreshSlug('Night Owls', insertOrganization(existing!.id), draw)).rejects.toThrow();
    expect(draw.count).toBe(1);
  });
});
