import {
  acceptInvitation,
  changeMemberRole,
  declineInvitation,
  inviteMember,
  removeMember,
  revokeInvitation,
  transferOwnership,
} from '@admit/shared/orgs';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invitation, member } from '../../platform/auth/organization-schema';
import { outboxMessage } from '../../platform/mail/schema';
import { addMember, createOrgAs } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let owner: Person;
let admin: Person;
let staff: Person;
let invitee: Person;
let stranger: Person;
let organizationId: string;

beforeAll(async () => {
  // The same invitee is invited again in almost every test, past the five a day an address may
  // receive (the quotas are tested in invitation-quotas.test.ts).
  t = await createTestApp({ env: { INVITATIONS_PER_RECIPIENT: '1000' } });
  [owner, admin, staff, invitee, stranger] = await Promise.all([
    t.signUp('Olga Owner'),
    t.signUp('Adam Admin'),
    t.signUp('Sam Staff'),
    t.signUp('Ines Invitee'),
    t.signUp('Stan Stranger'),
  ]);
});
afterAll(() => t?.close());

beforeEach(async () => {
  ({ organizationId } = await createOrgAs(t, owner.cookie, 'Night Owls'));
  await addMember(t, organizationId, admin.user.id, 'admin');
  await addMember(t, organizationId, staff.user.id, 'staff');
});

async function roleOf(userId: string) {
  const [row] = await t.db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, userId)));
  return row?.role ?? null;
}

async function invite(email: string, role: 'admin' | 'staff' = 'staff', cookie = owner.cookie) {
  return t.call(inviteMember, { organizationId, email, role }, cookie);
}

describe('orgs.invite', () => {
  it('records a pending invitation for a week and emails the invitee a link to Admit', async () => {
    const { status, body } = await invite(invitee.email.toUpperCase(), 'staff', admin.cookie);

    expect(status).toBe(200);
    const [stored] = await t.db.select().from(invitation).where(eq(invitation.id, body.result.invitationId));
    expect(stored).toMatchObject({
      organizationId,
      email: invitee.email,
      role: 'staff',
      status: 'pending',
      inviterId: admin.user.id,
    });
    const days = (stored!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    await t.settleJobs();
    const [mail] = await t.db
      .select()
      .from(outboxMessage)
      .where(eq(outboxMessage.to, invitee.email))
      .orderBy(desc(outboxMessage.createdAt))
      .limit(1);
    expect(mail!.subject).toBe('Adam Admin invited you to Night Owls on Admit');
    expect(mail!.text).toContain('as door staff');
    expect(mail!.text).toContain('http://localhost:3000/manage');
  });

  it('refuses a second pending invitation to the same email with already-exists', async () => {
    expect((await invite('twice@example.test')).status).toBe(200);
    const { status, body } = await invite('Twice@Example.test', 'admin');
    expect(status).toBe(409);
    expect(body.error.status).toBe('already-exists');
  });

  it('refuses to invite someone who is already a member', async () => {
    const { status, body } = await invite(staff.email, 'admin');
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ status: 'already-exists', details: { reason: 'member' } });
  });

  it('refuses the owner role: ownership moves only by transfer', async () => {
    const { status, body } = await t.callWithAnyInput(
      inviteMember,
      { organizationId, email: 'o@example.test', role: 'owner' },
      owner.cookie,
    );
    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
  });

  it('refuses door staff with permission-denied and a stranger with not-found', async () => {
    expect((await invite('x@example.test', 'staff', staff.cookie)).body.error.status).toBe('permission-denied');
    expect((await invite('x@example.test', 'staff', stranger.cookie)).body.error.status).toBe('not-found');
    expect(await t.db.select().from(invitation).where(eq(invitation.email, 'x@example.test'))).toEqual([]);
  });
});

describe('answering an invitation', () => {
  it('makes the invitee a member with the invited role when they accept', async () => {
    const { body } = await invite(invitee.email, 'admin');
    const accepted = await t.call(acceptInvitation, { invitationId: body.result.invitationId }, invitee.cookie);

    expect(accepted.status).toBe(200);
    expect(accepted.body.result).toEqual({ status: 'accepted', organizationId });
    expect(await roleOf(invitee.user.id)).toBe('admin');
    const [stored] = await t.db.select().from(invitation).where(eq(invitation.id, body.result.invitationId));
    expect(stored!.status).toBe('accepted');
  });

  it('answers an accepted invitation a second time with failed-precondition', async () => {
    const { body } = await invite(invitee.email);
    await t.call(acceptInvitation, { invitationId: body.result.invitationId }, invitee.cookie);
    const again = await t.call(acceptInvitation, { invitationId: body.result.invitationId }, invitee.cookie);
    expect(again.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'accepted' } });
  });

  it('records a decline and adds no member', async () => {
    const { body } = await invite(invitee.email);
    const declined = await t.call(declineInvitation, { invitationId: body.result.invitationId }, invitee.cookie);
    expect(declined.body.result).toEqual({ status: 'declined' });
    expect(await roleOf(invitee.user.id)).toBeNull();
  });

  it('refuses an expired invitation with failed-precondition', async () => {
    const { body } = await invite(invitee.email);
    await t.db
      .update(invitation)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitation.id, body.result.invitationId));
    for (const contract of [acceptInvitation, declineInvitation]) {
      const { status, body: answer } = await t.call(contract, { invitationId: body.result.invitationId }, invitee.cookie);
      expect(status).toBe(400);
      expect(answer.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'expired' } });
    }
    expect(await roleOf(invitee.user.id)).toBeNull();
  });

  it('answers not-found to anyone but the invitee, even members of the organization', async () => {
    const { body } = await invite(invitee.email);
    for (const person of [stranger, owner, admin]) {
      const answer = await t.call(acceptInvitation, { invitationId: body.result.invitationId }, person.cookie);
      expect(answer.body.error.status).toBe('not-found');
    }
  });

  it('lets an admin revoke a pending invitation, after which it cannot be accepted', async () => {
    const { body } = await invite(invitee.email);
    const revoked = await t.call(revokeInvitation, { invitationId: body.result.invitationId }, admin.cookie);
    expect(revoked.body.result).toEqual({ status: 'revoked' });
    const accepted = await t.call(acceptInvitation, { invitationId: body.result.invitationId }, invitee.cookie);
    expect(accepted.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'revoked' } });
  });

  it('lets a new invitation go out once the last one was declined', async () => {
    const { body } = await invite(invitee.email);
    await t.call(declineInvitation, { invitationId: body.result.invitationId }, invitee.cookie);
    expect((await invite(invitee.email)).status).toBe(200);
  });
});

describe('orgs.changeRole', () => {
  it('lets the owner make door staff an admin and back', async () => {
    const up = await t.call(changeMemberRole, { organizationId, userId: staff.user.id, role: 'admin' }, owner.cookie);
    expect(up.body.result).toEqual({ role: 'admin' });
    expect(await roleOf(staff.user.id)).toBe('admin');
    await t.call(changeMemberRole, { organizationId, userId: staff.user.id, role: 'staff' }, owner.cookie);
    expect(await roleOf(staff.user.id)).toBe('staff');
  });

  it('refuses an admin with permission-denied', async () => {
    const answer = await t.call(changeMemberRole, { organizationId, userId: staff.user.id, role: 'admin' }, admin.cookie);
    expect(answer.body.error.status).toBe('permission-denied');
    expect(await roleOf(staff.user.id)).toBe('staff');
  });

  it("refuses to change the owner's own role", async () => {
    const answer = await t.call(changeMemberRole, { organizationId, userId: owner.user.id, role: 'staff' }, owner.cookie);
    expect(answer.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'owner' } });
    expect(await roleOf(owner.user.id)).toBe('owner');
  });

  it('answers not-found for someone who is not a member', async () => {
    const answer = await t.call(changeMemberRole, { organizationId, userId: stranger.user.id, role: 'admin' }, owner.cookie);
    expect(answer.body.error.status).toBe('not-found');
  });
});

describe('orgs.removeMember', () => {
  it('lets the owner remove an admin', async () => {
    const answer = await t.call(removeMember, { organizationId, userId: admin.user.id }, owner.cookie);
    expect(answer.body.result).toEqual({ removed: true });
    expect(await roleOf(admin.user.id)).toBeNull();
  });

  it('lets an admin remove door staff but not another admin', async () => {
    const other = await t.signUp('Ada Other');
    await addMember(t, organizationId, other.user.id, 'admin');
    const denied = await t.call(removeMember, { organizationId, userId: other.user.id }, admin.cookie);
    expect(denied.body.error.status).toBe('permission-denied');
    const removed = await t.call(removeMember, { organizationId, userId: staff.user.id }, admin.cookie);
    expect(removed.status).toBe(200);
    expect(await roleOf(staff.user.id)).toBeNull();
  });

  it('lets door staff leave but not remove anyone else', async () => {
    const denied = await t.call(removeMember, { organizationId, userId: admin.user.id }, staff.cookie);
    expect(denied.body.error.status).toBe('permission-denied');
    const left = await t.call(removeMember, { organizationId, userId: staff.user.id }, staff.cookie);
    expect(left.status).toBe(200);
    expect(await roleOf(staff.user.id)).toBeNull();
  });

  it('never removes the owner, not even by themselves', async () => {
    for (const person of [owner, admin]) {
      const answer = await t.call(removeMember, { organizationId, userId: owner.user.id }, person.cookie);
      expect(answer.body.error.status).toBe('failed-precondition');
    }
    expect(await roleOf(owner.user.id)).toBe('owner');
  });
});

describe('orgs.transferOwnership', () => {
  it('makes the member the owner and the old owner an admin, together', async () => {
    const answer = await t.call(transferOwnership, { organizationId, userId: staff.user.id }, owner.cookie);
    expect(answer.body.result).toEqual({ ownerId: staff.user.id });
    expect(await roleOf(staff.user.id)).toBe('owner');
    expect(await roleOf(owner.user.id)).toBe('admin');
  });

  it('refuses an admin, a transfer to a non-member, and a transfer to oneself', async () => {
    expect((await t.call(transferOwnership, { organizationId, userId: admin.user.id }, admin.cookie)).body.error.status).toBe(
      'permission-denied',
    );
    expect((await t.call(transferOwnership, { organizationId, userId: stranger.user.id }, owner.cookie)).body.error.status).toBe(
      'not-found',
    );
    expect((await t.call(transferOwnership, { organizationId, userId: owner.user.id }, owner.cookie)).body.error.status).toBe(
      'failed-precondition',
    );
    expect(await roleOf(owner.user.id)).toBe('owner');
  });

  it('leaves exactly one owner when the owner transfers to two members at once', async () => {
    const answers = await Promise.all([
      t.call(transferOwnership, { organizationId, userId: staff.user.id }, owner.cookie),
      t.call(transferOwnership, { organizationId, userId: admin.user.id }, owner.cookie),
    ]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const owners = await t.db
      .select()
      .from(member)
      .where(and(eq(member.organizationId, organizationId), eq(member.role, 'owner')));
    expect(owners).toHaveLength(1);
  });
});
