import { callableErrorCodeOf } from '@admit/shared/callable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './platform/config';
import { createTestApp, openTestDatabase, type TestApp } from './testing/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} when the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('the dev outbox in development', () => {
  it('lists the emails that were sent as JSON at /dev/outbox.json', async () => {
    const { email } = await t.signUp('Olivia Owner');
    const response = await t.app.inject({ method: 'GET', url: '/dev/outbox.json' });
    expect(response.statusCode).toBe(200);
    const { messages } = response.json() as { messages: { to: string; subject: string; text: string; channel: string }[] };
    expect(messages).toContainEqual(
      expect.objectContaining({
        channel: 'email',
        to: email,
        subject: 'Verify your email for Admit',
        text: expect.stringMatching(/https?:\/\//),
      }),
    );
  });

  it('shows them as a page at /dev/outbox, with their links clickable and their text escaped', async () => {
    const { email } = await t.signUp('<script>alert(1)</script>');
    const response = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain(`to ${email}`);
    expect(response.body).toContain('Verify your email for Admit');
    expect(response.body).toMatch(/<a href="https?:\/\/[^"]+\/api\/auth\/verify-email/);
    expect(response.body).not.toContain('<script>alert(1)</script>');
    expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it("shows an email's HTML part, linked from the page, at /dev/outbox/:id", async () => {
    await t.signUp('Hugo Html');
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    const href = page.body.match(/<a href="(\/dev\/outbox\/[^"]+)">View the HTML email<\/a>/)![1]!;
    const html = await t.app.inject({ method: 'GET', url: href });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.body).toContain('Verify my email');
    expect((await t.app.inject({ method: 'GET', url: '/dev/outbox/no-such-id' })).statusCode).toBe(404);
  });
});

describe('the dev outbox seen from another machine', () => {
  // Every sign-in link is in it: whoever reads it can sign in as anyone who used the app.
  it.each(['/dev/outbox.json', '/dev/outbox', '/dev/outbox/:id'])(
    'answers %s with 404 to an address on the network',
    async (route) => {
      const { email } = await t.signUp('Nadia Network');
      const { messages } = (await t.app.inject({ method: 'GET', url: '/dev/outbox.json' })).json() as {
        messages: { id: string; to: string }[];
      };
      const url = route.replace(':id', messages.find((message) => message.to === email)!.id);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);

      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '192.168.1.23' });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('verify-email');
    },
  );

  it('answers 404 to a request a proxy on this machine forwarded, and 200 to this machine itself', async () => {
    await t.signUp('Pia Proxy');
    const forwarded = await t.app.inject({
      method: 'GET',
      url: '/dev/outbox.json',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '192.168.1.23' },
    });
    expect(forwarded.statusCode).toBe(404);
    expect(forwarded.body).not.toContain('verify-email');
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect((await t.app.inject({ method: 'GET', url: '/dev/outbox.json', remoteAddress })).statusCode).toBe(200);
  });
});

describe('an app built with a production configuration', () => {
  let production: Awaited<ReturnType<typeof buildApp>>;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      AUTH_SECRET: 'a-production-secret-of-at-least-32-chars',
      PUBLIC_URL: 'https://tickets.example.org',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.org:465',
    });
    production = await buildApp({
      config,
      database,
      publicUrl: config.PUBLIC_URL!,
      authSecret: config.AUTH_SECRET!,
      logger: false,
    });
    await production.ready();
  });
  let databaseClosed = false;
  afterAll(async () => {
    await production?.close();
    if (!databaseClosed) await database?.close();
  });

  it.each(['/dev/outbox.json', '/dev/outbox', '/dev/outbox/some-id'])('has no %s (404)', async (url) => {
    const response = await production.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Verify your email');
  });

  it.each(['payments.sandboxConfirm', 'payments.sandboxAuthenticate'])(
    'does not serve the sandbox payment callable %s (not-found), which development serves',
    async (name) => {
      const request = {
        method: 'POST' as const,
        url: `/fn/${name}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ data: { clientSecret: 'sbx_secret_x', approve: true } }),
      };
      const statusOf = (response: { json(): unknown }) =>
        callableErrorCodeOf((response.json() as { error: { status: string } }).error.status);

      const inProduction = await production.inject(request);
      expect(inProduction.statusCode).toBe(404);
      expect(statusOf(inProduction)).toBe('not-found');
      expect(inProduction.json()).toMatchObject({ error: { message: `No function named ${name}` } });
      // The same request in development reaches the callable, which refuses it itself (no such
      // payment, or no test card): its payment's secret, not a session, is what lets a guest pay
      // (decision 0060).
      const inDevelopment = await t.app.inject(request);
      expect(inDevelopment.statusCode).toBeGreaterThanOrEqual(400);
      expect(inDevelopment.statusCode).toBeLessThan(500);
      expect((inDevelopment.json() as { error: { message: string } }).error.message).not.toBe(`No function named ${name}`);
    },
  );

  it('answers /healthz with 200 {"status":"ok"}', async () => {
    const response = await production.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('sends Strict-Transport-Security', async () => {
    const response = await production.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  // Last in this group: it closes the database under the running app.
  it('answers /healthz with 503 once the database is gone', async () => {
    await database.close();
    databaseClosed = true;
    const response = await production.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable' });
  });
});
