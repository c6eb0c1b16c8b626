import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
const origin = 'http://localhost:3000';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function authPost(path: string, payload: unknown, cookie?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json() as { code?: string; message?: string } };
}

const signUpWith = (password: string) =>
  authPost('/sign-up/email', { name: 'Pat Policy', email: `pat-${randomUUID()}@example.test`, password });

describe('the password policy', () => {
  it('refuses a sign-up with a password of 11 characters and accepts one of 12', async () => {
    const short = await signUpWith('eleven char');
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('PASSWORD_TOO_SHORT');
    expect((await signUpWith('twelve chars')).status).toBe(200);
  });

  it('refuses a sign-up with a common or leaked password, whatever its letters’ case', async () => {
    for (const password of ['qwertyqwerty', 'PasswordPassword', '1q2w3e4r5t6y']) {
      const { status, body } = await signUpWith(password);
      expect(status, password).toBe(400);
      expect(body.code, password).toBe('PASSWORD_COMPROMISED');
    }
  });

  it('refuses a common password as the new one when the password is changed', async () => {
    const person = await t.signUp('Chad Change');
    const { status, body } = await authPost(
      '/change-password',
      { currentPassword: person.password, newPassword: 'qwertyuiopasdfghjkl' },
      person.cookie,
    );
    expect(status).toBe(400);
    expect(body.code).toBe('PASSWORD_COMPROMISED');
    expect(
      (await authPost('/change-password', { currentPassword: person.password, newPassword: 'short one' }, person.cookie)).body
        .code,
    ).toBe('PASSWORD_TOO_SHORT');
  });

  it('refuses a common password as the new one of a reset, and keeps the link usable', async () => {
    const person = await t.signUp('Rhea Reset');
    await authPost('/request-password-reset', { email: person.email, redirectTo: '/reset-password' });
    const link = (await t.lastMessageTo(person.email)).text.match(/https?:\/\/\S+/)![0];
    const token = new URL(link).searchParams.get('token');

    const common = await authPost('/reset-password', { token, newPassword: '123456789012' });
    expect(common.status).toBe(400);
    expect(common.body.code).toBe('PASSWORD_COMPROMISED');
    expect((await authPost('/reset-password', { token, newPassword: 'a sound new secret' })).status).toBe(200);
  });
});
