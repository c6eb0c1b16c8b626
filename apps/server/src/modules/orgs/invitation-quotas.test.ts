import { inviteMember, revokeInvitation } from '@admit/shared/orgs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessage } from '../../platform/mail/schema';
import { addMember, createOrgAs } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

// The quotas of orgs.invite (decision 0030), with the defaults of config.ts: an account sends at
// most 50 invitations a day, and an address receives at most 5.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let owner: Person;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olga Owner');
});
afterAll(() => t?.close());

const invite = (organizationId: string, email: string, cookie = owner.cookie) =>
  t.call(inviteMember, { organizationId, email, role: 'staff' }, cookie);

const mailsTo = async (email: string) =>
  (
    await t.db
      .select()
      .from(outboxMessage)
      .where(and(eq(outboxMessage.to, email), eq(outboxMessage.channel, 'email')))
  ).length;

describe('invitations to one address', () => {
  it('sends one outside address at most 5 invitations a day, whoever sends them, and says how long to wait', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie, 'Spam Club');
    const target = 'someone.outside@example.test';

    const statuses = [];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const invited = await invite(organizationId, target);
      statuses.push(invited.status);
      // Emailed before it is revoked: an invitation revoked first is never sent.
      if (invited.status === 200) await t.settleJobs();
      if (invited.status === 200)
        await t.call(revokeInvitation, { invitationId: invited.body.result.invitationId }, owner.cookie);
    }

    expect(statuses).toEqual([...Array<number>(5).fill(200), ...Array<number>(25).fill(429)]);
    expect(await mailsTo(target)).toBe(5);
    // Another organization's admin is refused too: the limit protects the address.
    const other = await t.signUp('Otto Other');
    const elsewhere = await createOrgAs(t, other.cookie, 'Elsewhere');
    const refused = await invite(elsewhere.organizationId, target.toUpperCase(), other.cookie);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ status: 'resource-exhausted', details: { reason: 'too-many-invitations' } });
    expect(refused.body.error.details.retryAfterSeconds).toBeGreaterThan(23 * 60 * 60);
    expect(refused.body.error.details.retryAfterSeconds).toBeLessThanOrEqual(24 * 60 * 60);
    expect((await invite(elsewhere.organizationId, 'someone.else@example.test', other.cookie)).status).toBe(200);
  });

  it('does not count an invitation refused for another reason', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie, 'Patient Club');
    const target = 'pat.patient@example.test';
    const first = await invite(organizationId, target);
    expect(first.status).toBe(200);
    // Still pending: each of these is `already-exists`, and sends nothing.
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await invite(organizationId, target)).status).toBe(409);
    const member = await t.signUp('Mo Member');
    await addMember(t, organizationId, member.user.id, 'staff');
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await invite(organizationId, member.email)).status).toBe(409);

    await t.call(revokeInvitation, { invitationId: first.body.result.invitationId }, owner.cookie);
    expect((await invite(organizationId, target)).status).toBe(200);
  });
});

describe('invitations from one account', () => {
  it('lets one account send at most 50 invitations a day', async () => {
    const sender = await t.signUp('Sid Sender');
    const { organizationId } = await createOrgAs(t, sender.cookie, 'Big Team');

    const statuses = [];
    for (let index = 0; index < 51; index += 1)
      statuses.push((await invite(organizationId, `colleague${index}@example.test`, sender.cookie)).status);

    expect(statuses.slice(0, 50).every((status) => status === 200)).toBe(true);
    expect(statuses[50]).toBe(429);
    // Another admin of the same organization has a quota of their own.
    const admin = await t.signUp('Ada Admin');
    await addMember(t, organizationId, admin.user.id, 'admin');
    expect((await invite(organizationId, 'colleague50@example.test', admin.cookie)).status).toBe(200);
  });
});
