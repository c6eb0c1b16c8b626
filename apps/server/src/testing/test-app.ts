import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../platform/config';
import { openDatabase, type Database } from '../platform/db/database';
import { outboxMessage } from '../platform/mail/schema';
import type { PaymentProvider } from '../platform/payments/payment-provider';

/**
 * A fresh, migrated database for one test file: a new PostgreSQL database on the server named by
 * TEST_DATABASE_URL when it is set (CI), otherwise PGlite in memory loaded from the snapshot.
 */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const snapshot = new Blob([readFileSync(inject('pgliteSnapshot'))]);
    return openDatabase({ kind: 'pglite', loadDataDir: snapshot });
  }
  const name = `admit_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 20 });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A callable's answer as tests read it: `result` on success, `error` otherwise. */
export interface CallBody<T> {
  result: T;
  // Tests read whatever details an error carries (fields, requested/remaining, ...) and assert on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  error: { status: string; message: string; details?: any };
}

export interface TestAppOptions {
  rateLimit?: boolean;
  /** See BuildAppOptions.liveSessionCheckMs. */
  liveSessionCheckMs?: number;
  /**
   * Builds the app on this existing PostgreSQL database (another instance's `database.url`) instead
   * of a fresh one: two instances on one database, as behind a load balancer. Closing it leaves the
   * database to its first owner.
   */
  databaseUrl?: string;
  /** Extra environment for loadConfig, such as `{ TRUST_PROXY: 'true' }`. */
  env?: Record<string, string>;
  /** The payment provider (e.g. Stripe's real SDK on the local stand-in); the sandbox otherwise. */
  payments?: PaymentProvider;
}

/** The whole server on a test database, driven through `app.inject` (no port unless `listen` is called). */
export async function createTestApp(options: TestAppOptions = {}) {
  const database: Database & { url?: string } = options.databaseUrl
    ? { ...(await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 10 })), url: options.databaseUrl }
    : await openTestDatabase();
  const config = loadConfig({ ...options.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const app = await buildApp({
    config,
    database,
    publicUrl: 'http://localhost:3000',
    authSecret: 'test-secret-test-secret-test-secret-0123',
    rateLimit: options.rateLimit ?? false,
    liveSessionCheckMs: options.liveSessionCheckMs,
    payments: options.payments,
    logger: false,
  });
  await app.ready();

  /** Calls a function the way the browser does; returns the HTTP status and the parsed body. */
  async function call<T = unknown>(name: string, data: unknown, cookie?: string) {
    const response = await app.inject({
      method: 'POST',
      url: `/fn/${name}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify({ data }),
    });
    return { status: response.statusCode, body: response.json() as CallBody<T> };
  }

  /** The newest email (or SMS) the dev outbox holds for an address or number; throws when there is none. */
  async function lastMessageTo(to: string, channel: 'email' | 'sms' = 'email') {
    const [message] = await database.db
      .select()
      .from(outboxMessage)
      .where(and(eq(outboxMessage.to, to), eq(outboxMessage.channel, channel)))
      .orderBy(desc(outboxMessage.createdAt))
      .limit(1);
    if (!message) throw new Error(`no ${channel} to ${to} in the outbox`);
    return message;
  }

  /** Signs a new person up, opens the verification link from the outbox, and returns their session cookie. */
  async function signUp(
    name = 'Test Person',
    email = `${randomUUID().slice(0, 8)}@example.test`,
    password = 'correct horse battery',
  ) {
    const signUpResponse = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: { name, email, password, callbackURL: '/' },
    });
    if (signUpResponse.statusCode !== 200) throw new Error(`sign-up failed: ${signUpResponse.statusCode} ${signUpResponse.body}`);
    const message = await lastMessageTo(email);
    const link = message.text.match(/https?:\/\/\S+/)?.[0];
    if (!link) throw new Error(`no verification email for ${email}`);
    const url = new URL(link);
    const verify = await app.inject({ method: 'GET', url: url.pathname + url.search });
    const cookie = cookiesOf(verify.headers['set-cookie']);
    if (!cookie) throw new Error(`verification gave no session: ${verify.statusCode} ${verify.body}`);
    const session = await app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    const user = (session.json() as { user: { id: string; name: string; email: string } }).user;
    return { cookie, user, email, password };
  }

  return {
    app,
    database,
    db: database.db,
    call,
    signUp,
    lastMessageTo,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export function cookiesOf(setCookie: string | string[] | undefined): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}
