import { createOrg } from '@admit/shared/orgs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { member, organization } from '../../platform/auth/organization-schema';
import { addMember, createOrgAs } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let founder: Person;
let staff: Person;

beforeAll(async () => {
  t = await createTestApp();
  [founder, staff] = await Promise.all([t.signUp('Fiona Founder'), t.signUp('Sam Staff')]);
});
afterAll(() => t?.close());

async function organizationCount() {
  const [row] = await t.db.select({ n: count() }).from(organization);
  return row!.n;
}

describe('orgs.create', () => {
  it('creates an organization and makes its creator the owner', async () => {
    const { status, body } = await t.call(createOrg, { name: 'Night Owls' }, founder.cookie);

    expect(status).toBe(200);
    expect(body.result.slug).toMatch(/^night-owls-[0-9a-f]{6}$/);
    const [created] = await t.db.select().from(organization).where(eq(organization.id, body.result.organizationId));
    expect(created).toMatchObject({ name: 'Night Owls', slug: body.result.slug });
    const members = await t.db.select().from(member).where(eq(member.organizationId, body.result.organizationId));
    expect(members).toEqual([expect.objectContaining({ userId: founder.user.id, role: 'owner' })]);
  });

  it('gives two organizations of the same name different slugs', async () => {
    const first = await createOrgAs(t, founder.cookie, 'Jazz Club');
    const second = await createOrgAs(t, founder.cookie, 'Jazz Club');
    expect(first.organizationId).not.toBe(second.organizationId);
    expect(first.slug).not.toBe(second.slug);
  });

  it('trims the name and makes a readable slug from accented letters', async () => {
    const { organizationId, slug } = await createOrgAs(t, founder.cookie, '  Café Crème  ');
    expect(slug).toMatch(/^cafe-creme-[0-9a-f]{6}$/);
    const [created] = await t.db.select().from(organization).where(eq(organization.id, organizationId));
    expect(created!.name).toBe('Café Crème');
  });

  it('makes a slug for a name with no Latin letters', async () => {
    const { slug } = await createOrgAs(t, founder.cookie, '東京ジャズ');
    expect(slug).toMatch(/^[0-9a-f]{6}$/);
  });

  it('lets a staff member of another organization found an organization of their own', async () => {
    const { organizationId } = await createOrgAs(t, founder.cookie, 'Staffed');
    await addMember(t, organizationId, staff.user.id, 'staff');

    const { status, body } = await t.call(createOrg, { name: 'Side Project' }, staff.cookie);

    expect(status).toBe(200);
    const members = await t.db.select().from(member).where(eq(member.organizationId, body.result.organizationId));
    expect(members).toEqual([expect.objectContaining({ userId: staff.user.id, role: 'owner' })]);
  });

  it('answers unauthenticated when signed out and creates nothing', async () => {
    const before = await organizationCount();
    const { status, body } = await t.call(createOrg, { name: 'Anonymous Org' });
    expect(status).toBe(401);
    expect(body.error.status).toBe('unauthenticated');
    expect(await organizationCount()).toBe(before);
  });

  it.each([
    ['a one-letter name', { name: 'x' }, 'name'],
    ['a blank name', { name: '    ' }, 'name'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['a name that is a number', { name: 42 }, 'name'],
    ['a name that is null', { name: null }, 'name'],
    ['no name', {}, 'name'],
    ['an unknown field', { name: 'Night Owls', ownerId: 'someone-else' }, ''],
  ])('refuses %s with invalid-argument naming the field, and creates nothing', async (_label, data, path) => {
    const before = await organizationCount();
    const { status, body } = await t.callWithAnyInput(createOrg, data, founder.cookie);
    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(body.error.details.fields.map((field: { path: string }) => field.path)).toContain(path);
    expect(await organizationCount()).toBe(before);
  });
});
