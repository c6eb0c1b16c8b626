import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesOf, createTestApp, type TestApp } from '../../testing/test-app';
import { secretOfTotpUri, totpCode } from '../../testing/totp';
import { user, verification } from './schema';

let t: TestApp;
const origin = 'http://localhost:3000';
let phoneCounter = 0;
/** A different valid German mobile number per test, so that tests do not share codes. */
const newPhone = () => `+4915100000${String(++phoneCounter).padStart(3, '0')}`;

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
  return {
    status: response.statusCode,
    body: response.json() as Record<string, unknown> & { code?: string },
    cookie: cookiesOf(response.headers['set-cookie']),
  };
}

const latestMessageTo = (to: string, channel: 'email' | 'sms') => t.lastMessageTo(to, channel);

async function sessionUserOf(cookie: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
  return (response.json() as { user: { email: string; emailVerified: boolean; phoneNumber?: string } } | null)?.user ?? null;
}

async function requestMagicLink(email: string) {
  const sent = await authPost('/sign-in/magic-link', { email, callbackURL: '/my-tickets', errorCallbackURL: '/sign-in' });
  expect(sent.status).toBe(200);
  const link = new URL((await latestMessageTo(email, 'email')).text.match(/https?:\/\/\S+/)![0]);
  return { link, token: link.searchParams.get('token')! };
}

const openLink = (link: URL) => t.app.inject({ method: 'GET', url: link.pathname + link.search });

describe('email link', () => {
  it('signs a new person in with a verified account on first use, and only once', async () => {
    const email = 'link-once@example.test';
    const { link } = await requestMagicLink(email);

    const first = await openLink(link);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(`${origin}/my-tickets`);
    expect(await sessionUserOf(cookiesOf(first.headers['set-cookie']))).toMatchObject({ email, emailVerified: true });

    const second = await openLink(link);
    expect(second.statusCode).toBe(302);
    expect(second.headers.location).toBe(`${origin}/sign-in?error=INVALID_TOKEN`);
    expect(cookiesOf(second.headers['set-cookie'])).not.toMatch(/session_token=[^;]/);
  });

  it('refuses a link after its 15 minutes', async () => {
    const email = 'link-late@example.test';
    const { link, token } = await requestMagicLink(email);
    const [row] = await t.db
      .select()
      .from(verification)
      .where(eq(verification.identifier, `magic-link:${token}`));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeCloseTo(15 * 60 * 1000, -4);
    await t.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.identifier, `magic-link:${token}`));

    const late = await openLink(link);
    expect(late.headers.location).toBe(`${origin}/sign-in?error=INVALID_TOKEN`);
    expect(await t.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });
});

describe('phone number', () => {
  it('refuses a number that is not E.164', async () => {
    const sent = await authPost('/phone-number/send-otp', { phoneNumber: '0151 2345678' });
    expect(sent.status).toBe(400);
    expect(sent.body.code).toBe('INVALID_PHONE_NUMBER');
  });

  it('signs a new person in with the 6-digit code sent by SMS, and the code works once', async () => {
    const phoneNumber = newPhone();
    expect((await authPost('/phone-number/send-otp', { phoneNumber })).status).toBe(200);
    const code = (await latestMessageTo(phoneNumber, 'sms')).text.match(/\b\d{6}\b/)![0];

    const verified = await authPost('/phone-number/verify', { phoneNumber, code });
    expect(verified.status).toBe(200);
    expect(await sessionUserOf(verified.cookie)).toMatchObject({ phoneNumber });

    const again = await authPost('/phone-number/verify', { phoneNumber, code });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('OTP_NOT_FOUND');
  });

  it('refuses even the right code after three wrong ones', async () => {
    const phoneNumber = newPhone();
    await authPost('/phone-number/send-otp', { phoneNumber });
    const code = (await latestMessageTo(phoneNumber, 'sms')).text.match(/\b\d{6}\b/)![0];
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 3; attempt++) {
      const answer = await authPost('/phone-number/verify', { phoneNumber, code: wrong });
      expect(answer.body.code).toBe('INVALID_OTP');
    }
    const exhausted = await authPost('/phone-number/verify', { phoneNumber, code });
    expect(exhausted.status).toBe(403);
    expect(exhausted.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(exhausted.cookie).not.toMatch(/session_token=[^;]/);
  });

  it('refuses a code after its 5 minutes', async () => {
    const phoneNumber = newPhone();
    await authPost('/phone-number/send-otp', { phoneNumber });
    const code = (await latestMessageTo(phoneNumber, 'sms')).text.match(/\b\d{6}\b/)![0];
    const [row] = await t.db
      .select()
      .from(verification)
      .where(like(verification.identifier, `%${phoneNumber}%`));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeCloseTo(5 * 60 * 1000, -4);
    await t.db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.id, row!.id));

    const late = await authPost('/phone-number/verify', { phoneNumber, code });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('OTP_EXPIRED');
  });
});

describe('two-factor authentication', () => {
  async function personWithTotp() {
    const person = await t.signUp();
    const enabled = await authPost('/two-factor/enable', { password: person.password }, person.cookie);
    expect(enabled.status).toBe(200);
    const secret = secretOfTotpUri(enabled.body.totpURI as string);
    expect(enabled.body.totpURI).toMatch(/^otpauth:\/\/totp\/Admit:/);
    return { ...person, secret, backupCodes: enabled.body.backupCodes as string[] };
  }

  const signIn = (email: string, password: string) => authPost('/sign-in/email', { email, password });

  it('is enabled only once a code from the app is verified, and is then asked at sign-in', async () => {
    const person = await personWithTotp();
    // Not verified yet: password alone still signs in.
    expect((await signIn(person.email, person.password)).body.twoFactorRedirect).toBeUndefined();

    const wrong = await authPost(
      '/two-factor/verify-totp',
      { code: '000000' === totpCode(person.secret) ? '111111' : '000000' },
      person.cookie,
    );
    expect(wrong.status).toBe(401);
    const verified = await authPost('/two-factor/verify-totp', { code: totpCode(person.secret) }, person.cookie);
    expect(verified.status).toBe(200);

    const challenged = await signIn(person.email, person.password);
    expect(challenged.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(challenged.cookie).not.toMatch(/session_token=[^;]/);

    const signedIn = await authPost('/two-factor/verify-totp', { code: totpCode(person.secret) }, challenged.cookie);
    expect(signedIn.status).toBe(200);
    expect(await sessionUserOf(signedIn.cookie)).toMatchObject({ email: person.email });
  });

  it('accepts a backup code instead of the app code, once', async () => {
    const person = await personWithTotp();
    await authPost('/two-factor/verify-totp', { code: totpCode(person.secret) }, person.cookie);
    const [backupCode] = person.backupCodes;

    const first = await signIn(person.email, person.password);
    const used = await authPost('/two-factor/verify-backup-code', { code: backupCode }, first.cookie);
    expect(used.status).toBe(200);
    expect(await sessionUserOf(used.cookie)).toMatchObject({ email: person.email });

    const second = await signIn(person.email, person.password);
    const reused = await authPost('/two-factor/verify-backup-code', { code: backupCode }, second.cookie);
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('INVALID_BACKUP_CODE');
  });

  it('is turned off with the password', async () => {
    const person = await personWithTotp();
    await authPost('/two-factor/verify-totp', { code: totpCode(person.secret) }, person.cookie);
    const session = await signIn(person.email, person.password);
    const signedIn = await authPost('/two-factor/verify-totp', { code: totpCode(person.secret) }, session.cookie);

    expect((await authPost('/two-factor/disable', { password: 'wrong password' }, signedIn.cookie)).status).toBe(400);
    expect((await authPost('/two-factor/disable', { password: person.password }, signedIn.cookie)).status).toBe(200);
    expect((await signIn(person.email, person.password)).body.twoFactorRedirect).toBeUndefined();
  });

  /** A person who signed in without a password turns TOTP on with the session alone. */
  async function turnOnTotp(cookie: string) {
    const enabled = await authPost('/two-factor/enable', {}, cookie);
    expect(enabled.status).toBe(200);
    const secret = secretOfTotpUri(enabled.body.totpURI as string);
    expect((await authPost('/two-factor/verify-totp', { code: totpCode(secret) }, cookie)).status).toBe(200);
    return secret;
  }

  it('is asked after an email link too: the link leads to the code step, with no session until the code', async () => {
    const email = 'link-totp@example.test';
    const first = await openLink((await requestMagicLink(email)).link);
    const secret = await turnOnTotp(cookiesOf(first.headers['set-cookie']));

    const opened = await openLink((await requestMagicLink(email)).link);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(`/sign-in?step=second-factor&redirect=%2Fmy-tickets`);
    const pending = cookiesOf(opened.headers['set-cookie']);
    expect(pending).not.toMatch(/session_token=[^;]/);
    expect(await sessionUserOf(pending)).toBeNull();

    const signedIn = await authPost('/two-factor/verify-totp', { code: totpCode(secret) }, pending);
    expect(signedIn.status).toBe(200);
    expect(await sessionUserOf(signedIn.cookie)).toMatchObject({ email });
  });

  it('is asked after a phone code too', async () => {
    const phoneNumber = newPhone();
    const signInByPhone = async () => {
      await authPost('/phone-number/send-otp', { phoneNumber });
      const code = (await latestMessageTo(phoneNumber, 'sms')).text.match(/\b\d{6}\b/)![0];
      return authPost('/phone-number/verify', { phoneNumber, code });
    };
    const secret = await turnOnTotp((await signInByPhone()).cookie);

    const challenged = await signInByPhone();
    expect(challenged.status).toBe(200);
    expect(challenged.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(await sessionUserOf(challenged.cookie)).toBeNull();

    const signedIn = await authPost('/two-factor/verify-totp', { code: totpCode(secret) }, challenged.cookie);
    expect(signedIn.status).toBe(200);
    expect(await sessionUserOf(signedIn.cookie)).toMatchObject({ phoneNumber });
  });

  it('still needs the password to turn it on for a person who has one', async () => {
    const person = await t.signUp();
    const withoutPassword = await authPost('/two-factor/enable', {}, person.cookie);
    expect(withoutPassword.status).toBe(400);
    expect(withoutPassword.body.code).toBe('INVALID_PASSWORD');
  });
});
