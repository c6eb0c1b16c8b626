import { randomUUID } from 'node:crypto';
import { accountLimits } from '@admit/shared/account';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { user } from './schema';

// Better Auth's routes take any length and any character; these are the limits of
// docs/contracts.md (Input limits), refused before anyone is looked up.

let t: TestApp;
/** The same server with its sign-in rate limits on, as in production: the attack that found NULs ran there. */
let limited: TestApp;
const origin = 'http://localhost:3000';

beforeAll(async () => {
  [t, limited] = await Promise.all([createTestApp(), createTestApp({ rateLimit: true })]);
});
afterAll(() => Promise.all([t?.close(), limited?.close()]));

async function authPost(path: string, payload: unknown, options: { cookie?: string; app?: TestApp } = {}) {
  const response = await (options.app ?? t).app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin, ...(options.cookie ? { cookie: options.cookie } : {}) },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, text: response.body, body: response.json() as { code?: string; message?: string } };
}

const newEmail = () => `${randomUUID().slice(0, 8)}@example.test`;
const longEmail = `${'a'.repeat(accountLimits.email - '@example.test'.length)}@example.test`;

describe('length limits on sign-in and account input', () => {
  it('refuses a sign-up whose name has 900,004 characters with 400, saying the name is too long, and makes no account', async () => {
    const email = newEmail();
    const { status, body } = await authPost('/sign-up/email', {
      name: 'x'.repeat(900_004),
      email,
      password: 'correct horse battery',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'VALUE_TOO_LONG', message: 'name is too long: at most 200 characters' });
    expect(await t.db.select().from(user).where(eq(user.email, email))).toEqual([]);
  });

  it('accepts a name of exactly 200 characters', async () => {
    const { status } = await authPost('/sign-up/email', {
      name: 'n'.repeat(accountLimits.name),
      email: newEmail(),
      password: 'correct horse battery',
    });
    expect(status).toBe(200);
  });

  it('refuses a new name over 200 characters and a picture address over 2,048, and keeps the name', async () => {
    const person = await t.signUp('Una Update');
    const name = await authPost('/update-user', { name: 'y'.repeat(accountLimits.name + 1) }, { cookie: person.cookie });
    expect(name.status).toBe(400);
    expect(name.body.code).toBe('VALUE_TOO_LONG');
    const image = await authPost(
      '/update-user',
      { image: `https://example.test/${'p'.repeat(accountLimits.image)}` },
      { cookie: person.cookie },
    );
    expect(image.status).toBe(400);
    expect(image.body.message).toBe('image is too long: at most 2048 characters');
    const [stored] = await t.db.select({ name: user.name }).from(user).where(eq(user.id, person.user.id));
    expect(stored?.name).toBe('Una Update');
  });

  it('refuses an address over 254 characters at sign-up, sign-in, email link, password reset and change of email', async () => {
    const person = await t.signUp('Ed Email');
    expect(longEmail.length).toBe(accountLimits.email);
    const tooLong = `a${longEmail}`;
    const answers = [
      await authPost('/sign-up/email', { name: 'Ed', email: tooLong, password: 'correct horse battery' }),
      await authPost('/sign-in/email', { email: tooLong, password: 'correct horse battery' }),
      await authPost('/sign-in/magic-link', { email: tooLong }),
      await authPost('/request-password-reset', { email: tooLong }),
      await authPost('/change-email', { newEmail: tooLong }, { cookie: person.cookie }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALUE_TOO_LONG');
    }
  });

  it('refuses a phone number over 16 characters and a password over 128', async () => {
    const phone = await authPost('/phone-number/send-otp', { phoneNumber: `+${'1'.repeat(accountLimits.phoneNumber)}` });
    expect(phone.status).toBe(400);
    expect(phone.body.message).toBe('phoneNumber is too long: at most 16 characters');
    const password = await authPost('/sign-in/email', { email: newEmail(), password: 'p'.repeat(accountLimits.passwordMax + 1) });
    expect(password.status).toBe(400);
    expect(password.body.code).toBe('VALUE_TOO_LONG');
  });
});

describe('NUL and other control characters in sign-in and account input', () => {
  const nulEmail = 'a\u0000@example.com';

  it('answers an address with a NUL with 400 and no SQL at sign-in, email link and password reset, with rate limits on', async () => {
    for (const [path, payload] of [
      ['/sign-in/email', { email: nulEmail, password: 'correct horse battery' }],
      ['/sign-in/magic-link', { email: nulEmail }],
      ['/request-password-reset', { email: nulEmail, redirectTo: '/reset-password' }],
      ['/phone-number/send-otp', { phoneNumber: '+4917\u00001234567' }],
    ] as const) {
      const { status, body, text } = await authPost(path, payload, { app: limited });
      expect(status, path).toBe(400);
      expect(body.code, path).toBe('INVALID_CHARACTERS');
      expect(text, path).not.toMatch(/select|insert|params|rate_limit/i);
    }
  });

  it('refuses a name with a NUL or a line break in update-user and sign-up with 400', async () => {
    const person = await t.signUp('Nia Nul');
    const update = await authPost('/update-user', { name: 'Nia\u0000Nul' }, { cookie: person.cookie });
    expect(update.status).toBe(400);
    expect(update.body).toEqual({ code: 'INVALID_CHARACTERS', message: 'name must not contain control characters' });
    const signUp = await authPost('/sign-up/email', { name: 'Two\nLines', email: newEmail(), password: 'correct horse battery' });
    expect(signUp.status).toBe(400);
  });

  it('refuses a name, email or password that is not text with 400, and lets a picture be removed with null', async () => {
    const person = await t.signUp('Tex Typed');
    for (const payload of [{ name: null }, { name: 42 }, { name: ['Tex'] }, { image: 7 }]) {
      const update = await authPost('/update-user', payload, { cookie: person.cookie });
      expect(update.status, JSON.stringify(payload)).toBe(400);
      expect(update.body.code).toBe('INVALID_INPUT');
    }
    const removed = await authPost('/update-user', { image: null }, { cookie: person.cookie });
    expect(removed.status).toBe(200);
    const signUp = await authPost('/sign-up/email', {
      name: { first: 'Tex' },
      email: newEmail(),
      password: 'correct horse battery',
    });
    expect(signUp.status).toBe(400);
  });

  it('refuses a NUL in a query parameter of a link with 400', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/verify-email?token=%00&callbackURL=%2F' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_CHARACTERS' });
  });
});

describe('a body that is not an object', () => {
  it('is refused with 400 on every route, signed in or not, before any plugin looks into it', async () => {
    const person = await t.signUp('Otto Object');
    for (const payload of [false, 'a string', 42, null, ['a', 'list']]) {
      for (const cookie of [undefined, person.cookie]) {
        const { status, body } = await authPost('/update-user', payload, { cookie });
        expect(status, JSON.stringify(payload)).toBe(400);
        expect(body.code).toEqual(expect.any(String));
      }
    }
  });
});
