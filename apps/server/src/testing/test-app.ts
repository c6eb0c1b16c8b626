import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callableErrorCodeOf, type CallableContract, type CallableErrorCode } from '@admit/shared/callable';
import { and, desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import type { z } from 'zod';
import { buildApp, jobDefinitions } from '../app';
import { createJobQueue } from '../platform/jobs/job-queue';
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

/**
 * A callable's answer as tests read it: `result` on success, `error` otherwise, with the status name
 * of the wire (`NOT_FOUND`) read as its code (`not-found`), as every client of the protocol reads it.
 * The wire names themselves are tested in platform/http (callable.test.ts, firebase-interop.test.ts).
 */
export interface CallBody<T> {
  result: T;
  // Tests read whatever details an error carries (fields, requested/remaining, ...) and assert on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  error: { status: CallableErrorCode; message: string; details?: any };
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
  /** The built web app to serve (a folder the test made); apps/web/dist otherwise. */
  webDistDir?: string;
}

/** The whole server on a test database, driven through `app.inject` (no port unless `listen` is called). */
/** The secret test apps sign sessions and order links with. */
export const testAuthSecret = 'test-secret-test-secret-test-secret-0123';

export async function createTestApp(options: TestAppOptions = {}) {
  const database: Database & { url?: string } = options.databaseUrl
    ? { ...(await openDatabase({ kind: 'postgres', url: options.databaseUrl, poolSize: 10 })), url: options.databaseUrl }
    : await openTestDatabase();
  // Uploaded files go to a folder of this app's own, removed when it closes.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'admit-test-data-'));
  const config = loadConfig({ DATA_DIR: dataDir, ...options.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const app = await buildApp({
    config,
    database,
    publicUrl: 'http://localhost:3000',
    authSecret: testAuthSecret,
    rateLimit: options.rateLimit ?? false,
    liveSessionCheckMs: options.liveSessionCheckMs,
    payments: options.payments,
    webDistDir: options.webDistDir,
    logger: false,
    // Quick to find work and to retry a try whose process died: tests wait for jobs.
    jobQueue: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
  });
  await app.ready();
  /** Enqueues jobs as the server does (the app's own workers run them). */
  const jobs = await createJobQueue(database, app.log, jobDefinitions as never);

  /**
   * Waits until the app's workers have run every job that is due (emails, holds): what a call
   * enqueued has happened, or failed for good. Jobs set to run later (a hold's end) are not waited for.
   */
  async function settleJobs(timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await database.execute(
        `select count(*)::int as busy from pgboss.job
          where state = 'active' or (state in ('created', 'retry') and start_after <= now())`,
        [],
      );
      if (Number(rows[0]!.busy) === 0) return;
      if (Date.now() > deadline) throw new Error(`jobs still due after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Posts `data` to the callable named `name` the way the browser does; returns the HTTP status and the parsed body. */
  async function post<T>(name: string, data: unknown, cookie?: string) {
    const response = await app.inject({
      method: 'POST',
      url: `/fn/${name}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify({ data }),
    });
    const body = response.json() as CallBody<T>;
    if (body.error) body.error.status = callableErrorCodeOf(body.error.status);
    return { status: response.statusCode, body };
  }

  /** Calls a callable through its contract, with input of the contract's type; the result is typed by its output. */
  function call<C extends CallableContract>(contract: C, data: z.input<C['input']>, cookie?: string) {
    return post<z.output<C['output']>>(contract.name, data, cookie);
  }

  /**
   * Calls a callable through its contract with input the contract's type does not allow (wrong types,
   * unknown or missing fields), for tests that send such input on purpose and expect it refused.
   */
  function callWithAnyInput<C extends CallableContract>(contract: C, data: unknown, cookie?: string) {
    return post<z.output<C['output']>>(contract.name, data, cookie);
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

  /**
   * A bearer token for API clients (`Authorization: Bearer <token>`), from signing in with a
   * password: the signed token the server hands only to a client that asks for one with
   * `x-admit-want-token: 1` (decision 0028).
   */
  async function bearerTokenFor(email: string, password: string): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', 'x-admit-want-token': '1' },
      payload: { email, password },
    });
    const token = response.headers['set-auth-token'];
    if (response.statusCode !== 200 || typeof token !== 'string')
      throw new Error(`no bearer token: ${response.statusCode} ${response.body}`);
    return token;
  }

  return {
    app,
    config,
    database,
    db: database.db,
    call,
    callWithAnyInput,
    signUp,
    bearerTokenFor,
    lastMessageTo,
    jobs,
    settleJobs,
    async close() {
      await jobs.stop();
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function cookiesOf(setCookie: string | string[] | undefined): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}
