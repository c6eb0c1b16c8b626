import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
afterEach(async () => t?.close());

const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000' };

function signIn(email: string, remoteAddress: string, extraHeaders: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress,
    headers: { ...headers, ...extraHeaders },
    payload: { email, password: 'not the password' },
  });
}

describe('sign-in rate limits', () => {
  it('answers 429 with Retry-After on the eleventh password attempt for one email, whatever the IP', async () => {
    t = await createTestApp({ rateLimit: true });
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await signIn('Someone@Example.test', `10.0.1.${attempt}`);
      expect(response.statusCode).toBe(401);
    }
    const limited = await signIn('someone@example.test', '10.0.1.99');
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter });
    // Another address from the same IP is not held back.
    expect((await signIn('other@example.test', '10.0.1.99')).statusCode).toBe(401);
  });

  it('gives a limited unknown email and a limited known email the same answer', async () => {
    t = await createTestApp({ rateLimit: true });
    const known = await t.signUp();
    const unknown = 'nobody-here@example.test';
    for (let attempt = 1; attempt <= 10; attempt++) {
      await signIn(known.email, `10.0.2.${attempt}`);
      await signIn(unknown, `10.0.3.${attempt}`);
    }
    const forKnown = await signIn(known.email, '10.0.2.99');
    const forUnknown = await signIn(unknown, '10.0.3.99');
    expect(forKnown.statusCode).toBe(429);
    expect(forUnknown.statusCode).toBe(forKnown.statusCode);
    // The wait differs only by the second in which each address's first attempt fell.
    const answer = (response: typeof forKnown) => ({
      ...response.json(),
      retryAfter: undefined,
      headers: Object.keys(response.headers).sort(),
    });
    expect(answer(forUnknown)).toEqual(answer(forKnown));
    expect(Math.abs(Number(forUnknown.headers['retry-after']) - Number(forKnown.headers['retry-after']))).toBeLessThanOrEqual(5);
  });

  it('limits one IP across many emails even when it claims other addresses in X-Forwarded-For', async () => {
    t = await createTestApp({ rateLimit: true });
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await signIn(`person${attempt}@example.test`, '10.0.4.1', { 'x-forwarded-for': `203.0.113.${attempt}` });
      expect(response.statusCode).toBe(401);
    }
    const limited = await signIn('person11@example.test', '10.0.4.1', { 'x-forwarded-for': '203.0.113.11' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts per forwarded client when TRUST_PROXY is set', async () => {
    t = await createTestApp({ rateLimit: true, env: { TRUST_PROXY: 'true' } });
    for (let attempt = 1; attempt <= 11; attempt++) {
      const response = await signIn(`person${attempt}@example.test`, '10.0.5.1', { 'x-forwarded-for': `203.0.113.${attempt}` });
      expect(response.statusCode).toBe(401);
    }
  });

  it('sends at most five codes to one phone number in fifteen minutes, whatever the IP', async () => {
    t = await createTestApp({ rateLimit: true });
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/phone-number/send-otp',
        remoteAddress,
        headers,
        payload: { phoneNumber: '+4915112345678' },
      });
    for (let attempt = 1; attempt <= 5; attempt++) expect((await send(`10.0.6.${attempt}`)).statusCode).toBe(200);
    const limited = await send('10.0.6.99');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('sends at most five email links to one address in fifteen minutes, whatever the IP', async () => {
    t = await createTestApp({ rateLimit: true });
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/magic-link',
        remoteAddress,
        headers,
        payload: { email: 'link@example.test', callbackURL: '/' },
      });
    for (let attempt = 1; attempt <= 5; attempt++) expect((await send(`10.0.7.${attempt}`)).statusCode).toBe(200);
    expect((await send('10.0.7.99')).statusCode).toBe(429);
  });
});
