import { createEvent } from '@admit/shared/events';
import { setRequireTwoFactor } from '@admit/shared/orgs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrgAs, eventInput } from '../../testing/fixtures';
import { cookiesOf, createTestApp, type TestApp } from '../../testing/test-app';
import { secretOfTotpUri, totpCode } from '../../testing/totp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function authPost(path: string, payload: unknown, cookie: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
    payload: JSON.stringify(payload),
  });
  return {
    status: response.statusCode,
    body: response.json() as Record<string, unknown>,
    cookie: cookiesOf(response.headers['set-cookie']),
  };
}

/** Turns TOTP on and answers the person with their new session (Better Auth replaces it on enabling). */
async function turnOnTwoFactor<P extends { cookie: string; password: string }>(person: P): Promise<P> {
  const enabled = await authPost('/two-factor/enable', { password: person.password }, person.cookie);
  expect(enabled.status).toBe(200);
  const secret = secretOfTotpUri(enabled.body.totpURI as string);
  const verified = await authPost('/two-factor/verify-totp', { code: totpCode(secret) }, enabled.cookie || person.cookie);
  expect(verified.status).toBe(200);
  return { ...person, cookie: verified.cookie || enabled.cookie || person.cookie };
}

describe('orgs.setRequireTwoFactor', () => {
  it('refuses to turn it on while the owner has no second factor', async () => {
    const owner = await t.signUp();
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const answer = await t.call(setRequireTwoFactor, { organizationId, required: true }, owner.cookie);
    expect(answer.body.error.status).toBe('failed-precondition');
    expect(answer.body.error.details).toEqual({ reason: 'owner-two-factor-off' });
  });

  it('refuses members without a second factor everything in the organization, and lets them back once they have one', async () => {
    const owner = await turnOnTwoFactor(await t.signUp());
    const { organizationId } = await createOrgAs(t, owner.cookie);
    let admin = await t.signUp();
    await addMember(t, organizationId, admin.user.id, 'admin');

    const turnedOn = await t.call(setRequireTwoFactor, { organizationId, required: true }, owner.cookie);
    expect(turnedOn.body.result).toEqual({ required: true });

    const refused = await t.call(createEvent, eventInput(organizationId), admin.cookie);
    expect(refused.status).not.toBe(200);
    expect(refused.body.error.status).toBe('failed-precondition');
    expect(refused.body.error.details).toEqual({ reason: 'two-factor-required' });
    // The owner, who has a second factor, goes on working.
    expect((await t.call(createEvent, eventInput(organizationId), owner.cookie)).status).toBe(200);

    admin = await turnOnTwoFactor(admin);
    expect((await t.call(createEvent, eventInput(organizationId), admin.cookie)).status).toBe(200);
  });

  it('lets members without a second factor back in when the owner turns it off', async () => {
    const owner = await turnOnTwoFactor(await t.signUp());
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const admin = await t.signUp();
    await addMember(t, organizationId, admin.user.id, 'admin');
    await t.call(setRequireTwoFactor, { organizationId, required: true }, owner.cookie);
    expect((await t.call(createEvent, eventInput(organizationId), admin.cookie)).body.error.status).toBe('failed-precondition');
    // An admin cannot turn it off for themselves.
    expect((await t.call(setRequireTwoFactor, { organizationId, required: false }, admin.cookie)).status).not.toBe(200);

    expect((await t.call(setRequireTwoFactor, { organizationId, required: false }, owner.cookie)).body.result).toEqual({
      required: false,
    });
    expect((await t.call(createEvent, eventInput(organizationId), admin.cookie)).status).toBe(200);
  });
});
