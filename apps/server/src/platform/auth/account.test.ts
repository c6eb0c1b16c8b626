import { once } from 'node:events';
import type { CallableContract } from '@admit/shared/callable';
import type { LiveServerMessage } from '@admit/shared/live';
import { createOrg } from '@admit/shared/orgs';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { z } from 'zod';
import { outboxMessage } from '../mail/schema';
import { cookiesOf, createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
const origin = 'http://localhost:3000';

beforeAll(async () => {
  t = await createTestApp({ liveSessionCheckMs: 100 });
});
afterAll(() => t?.close());

let baseUrl: string | undefined;
/** The app on a real port (once), for WebSocket clients. */
async function listening() {
  baseUrl ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  return baseUrl;
}

/** Signs in as the browser does, or as an API client that asks for a bearer token (`wantToken`). */
async function signIn(email: string, password: string, { wantToken = false } = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', ...(wantToken ? { 'x-admit-want-token': '1' } : { origin }) },
    payload: { email, password },
  });
  return {
    status: response.statusCode,
    token: response.headers['set-auth-token'] as string | undefined,
    exposedHeaders: response.headers['access-control-expose-headers'],
    body: response.json() as Record<string, unknown>,
    cookie: cookiesOf(response.headers['set-cookie']),
  };
}

async function callWithBearer<C extends CallableContract>(contract: C, data: z.input<C['input']>, token: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/fn/${contract.name}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify({ data }),
  });
  return { status: response.statusCode, body: response.json() as { result?: unknown; error?: { status: string } } };
}

async function authPost(path: string, payload: unknown, cookie?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> & { code?: string } };
}

async function latestEmailTo(to: string) {
  const [message] = await t.db
    .select()
    .from(outboxMessage)
    .where(eq(outboxMessage.to, to))
    .orderBy(desc(outboxMessage.createdAt))
    .limit(1);
  return message;
}

async function sessionUserOf(cookie: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
  return (response.json() as { user: { email: string } } | null)?.user ?? null;
}

describe('bearer tokens', () => {
  it('keeps the session token out of a sign-in that does not ask for one: not in the body, not in a header', async () => {
    const person = await t.signUp('Cora Cookie');
    const { status, token, exposedHeaders, body, cookie } = await signIn(person.email, person.password);
    expect(status).toBe(200);
    expect(cookie).toContain('better-auth.session_token=');
    expect(token).toBeUndefined();
    expect(exposedHeaders ?? '').not.toContain('set-auth-token');
    expect(body).not.toHaveProperty('token');
    expect(body).toMatchObject({ user: { email: person.email } });
  });

  it('keeps the session token out of the session the page reads', async () => {
    const person = await t.signUp('Sam Session');
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: person.cookie } });
    const answer = response.json() as { session: Record<string, unknown>; user: { email: string } };
    expect(answer.user.email).toBe(person.email);
    expect(answer.session).toHaveProperty('id');
    expect(answer.session).not.toHaveProperty('token');
  });

  it('gives a client that asks with x-admit-want-token the signed token in set-auth-token, never in the body', async () => {
    const person = await t.signUp('Bea Bearer');
    const { status, token, body } = await signIn(person.email, person.password, { wantToken: true });
    expect(status).toBe(200);
    expect(token).toMatch(/^[\w-]+\.[\w+/=%-]+$/);
    expect(body).not.toHaveProperty('token');
  });

  it('gives a token on sign-in that authorizes a callable without any cookie', async () => {
    const person = await t.signUp('Bea Bearer');
    const { status, token } = await signIn(person.email, person.password, { wantToken: true });
    expect(status).toBe(200);
    expect(token).toBeTruthy();

    const created = await callWithBearer(createOrg, { name: 'Token Club' }, token!);
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ organizationId: expect.any(String) });
  });

  it('authorizes a /live subscription on a real socket', async () => {
    const person = await t.signUp('Liv Live');
    const { token } = await signIn(person.email, person.password, { wantToken: true });
    await callWithBearer(createOrg, { name: 'Socket Club' }, token!);
    const baseUrl = await listening();

    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: { authorization: `Bearer ${token}` } });
    try {
      await once(socket, 'open');
      const reply = new Promise<LiveServerMessage>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(String(data)) as LiveServerMessage)),
      );
      socket.send(JSON.stringify({ type: 'subscribe', id: 'mine', query: 'orgs.mine', params: {} }));
      const message = await reply;
      expect(message).toMatchObject({ type: 'snapshot', id: 'mine', rows: [expect.objectContaining({ name: 'Socket Club' })] });
    } finally {
      socket.close();
    }
  });

  it('refuses the token of a revoked session with 401 unauthenticated', async () => {
    const person = await t.signUp('Rev Oked');
    const { token } = await signIn(person.email, person.password, { wantToken: true });
    expect((await callWithBearer(createOrg, { name: 'Before Revoke' }, token!)).status).toBe(200);

    const revoked = await authPost('/revoke-session', { token: token!.split('.')[0] }, person.cookie);
    expect(revoked.status).toBe(200);

    const after = await callWithBearer(createOrg, { name: 'After Revoke' }, token!);
    expect(after.status).toBe(401);
    expect(after.body.error?.status).toBe('UNAUTHENTICATED');
  });

  it('closes the /live socket of a session once it is revoked', async () => {
    const person = await t.signUp('Sid Socket');
    const { token } = await signIn(person.email, person.password, { wantToken: true });
    const baseUrl = await listening();
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: { authorization: `Bearer ${token}` } });
    await once(socket, 'open');
    const closed = once(socket, 'close');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.readyState).toBe(WebSocket.OPEN);

    await authPost('/revoke-session', { token: token!.split('.')[0] }, person.cookie);
    const [code] = (await closed) as [number];
    expect(code).toBe(4401);
  });

  it('refuses the raw session token, without its signature, as a bearer token: on callables, /live and get-session', async () => {
    const person = await t.signUp('Rae Raw');
    const { token } = await signIn(person.email, person.password, { wantToken: true });
    const raw = decodeURIComponent(token!).split('.')[0]!;
    expect((await callWithBearer(createOrg, { name: 'Signed Club' }, token!)).status).toBe(200);

    const called = await callWithBearer(createOrg, { name: 'Raw Club' }, raw);
    expect(called.status).toBe(401);
    expect(called.body.error?.status).toBe('UNAUTHENTICATED');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { authorization: `Bearer ${raw}` },
    });
    expect(session.json()).toBeNull();
    const socket = new WebSocket(`${(await listening()).replace(/^http/, 'ws')}/live`, {
      headers: { authorization: `Bearer ${raw}` },
    });
    try {
      await once(socket, 'open');
      const reply = new Promise<LiveServerMessage>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(String(data)) as LiveServerMessage)),
      );
      socket.send(JSON.stringify({ type: 'subscribe', id: 'mine', query: 'orgs.mine', params: {} }));
      expect(await reply).toMatchObject({ type: 'error', id: 'mine' });
    } finally {
      socket.close();
    }
  });

  it('lists a person’s sessions to the page without their tokens', async () => {
    const person = await t.signUp('Lis Sessions');
    await signIn(person.email, person.password);
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie: person.cookie } });
    expect(response.statusCode).toBe(200);
    const sessions = response.json() as Record<string, unknown>[];
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      expect(session).toHaveProperty('id');
      expect(session).not.toHaveProperty('token');
    }
    expect(response.body).not.toContain(decodeURIComponent(person.cookie.split('=')[1]!).split('.')[0]);
  });

  it('revokes another of one’s sessions by its id, and nobody else’s', async () => {
    const person = await t.signUp('Ivo Ids');
    const stranger = await t.signUp('Sten Stranger');
    const phone = await signIn(person.email, person.password);
    const listed = await t.app.inject({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie: person.cookie } });
    const onPhone = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: phone.cookie } });
    const phoneId = (onPhone.json() as { session: { id: string } }).session.id;
    expect((listed.json() as { id: string }[]).map((session) => session.id)).toContain(phoneId);

    const byStranger = await authPost('/revoke-session-by-id', { sessionId: phoneId }, stranger.cookie);
    expect(byStranger.status).toBe(404);
    expect(await sessionUserOf(phone.cookie)).toMatchObject({ email: person.email });

    const revoked = await authPost('/revoke-session-by-id', { sessionId: phoneId }, person.cookie);
    expect(revoked.status).toBe(200);
    expect(await sessionUserOf(phone.cookie)).toBeNull();
    expect(await sessionUserOf(person.cookie)).toMatchObject({ email: person.email });
    expect((await authPost('/revoke-session-by-id', { sessionId: phoneId }, person.cookie)).status).toBe(404);
  });

  it('refuses a made-up token with 401 unauthenticated', async () => {
    const { status, body } = await callWithBearer(createOrg, { name: 'Forged' }, 'not-a-real-token');
    expect(status).toBe(401);
    expect(body.error?.status).toBe('UNAUTHENTICATED');
  });
});

describe('password reset by email', () => {
  it('works once through the emailed link, retires the old password and signs out every session', async () => {
    const person = await t.signUp('Rita Reset');
    const other = await signIn(person.email, person.password);
    expect(await sessionUserOf(other.cookie)).not.toBeNull();

    const requested = await authPost('/request-password-reset', { email: person.email, redirectTo: '/reset-password' });
    expect(requested.status).toBe(200);
    const link = (await latestEmailTo(person.email))?.text.match(/https?:\/\/\S+/)?.[0];
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=/);
    const token = new URL(link!).searchParams.get('token');

    const reset = await authPost('/reset-password', { token, newPassword: 'a brand new secret' });
    expect(reset.status).toBe(200);
    const again = await authPost('/reset-password', { token, newPassword: 'yet another secret' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_TOKEN');

    expect((await signIn(person.email, person.password)).status).toBe(401);
    expect((await signIn(person.email, 'a brand new secret')).status).toBe(200);
    expect(await sessionUserOf(other.cookie)).toBeNull();
    expect(await sessionUserOf(person.cookie)).toBeNull();
  });

  it('answers an unknown email exactly like a known one and sends nothing', async () => {
    const email = 'nobody-here@example.test';
    const answer = await authPost('/request-password-reset', { email, redirectTo: '/reset-password' });
    expect(answer.status).toBe(200);
    expect(await latestEmailTo(email)).toBeUndefined();
  });
});

describe('change password and email', () => {
  it('refuses to change the password when the current one is wrong', async () => {
    const person = await t.signUp('Wanda Wrong');
    const { status, body } = await authPost(
      '/change-password',
      { currentPassword: 'not my password', newPassword: 'something else entirely' },
      person.cookie,
    );
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_PASSWORD');
    expect((await signIn(person.email, person.password)).status).toBe(200);
  });

  it('changes the password when the current one is right', async () => {
    const person = await t.signUp('Carl Change');
    const { status } = await authPost(
      '/change-password',
      { currentPassword: person.password, newPassword: 'something else entirely' },
      person.cookie,
    );
    expect(status).toBe(200);
    expect((await signIn(person.email, 'something else entirely')).status).toBe(200);
  });

  it('changes the email only once the link sent to the new address is opened', async () => {
    const person = await t.signUp('Emma Email');
    const newEmail = `new-${person.email}`;
    const requested = await authPost('/change-email', { newEmail, callbackURL: '/account' }, person.cookie);
    expect(requested.status).toBe(200);
    expect((await sessionUserOf(person.cookie))?.email).toBe(person.email);

    const message = await latestEmailTo(newEmail);
    expect(message?.subject).toBe('Confirm your new email for Admit');
    const link = new URL(message!.text.match(/https?:\/\/\S+/)![0]);
    await t.app.inject({ method: 'GET', url: link.pathname + link.search, headers: { cookie: person.cookie } });

    expect((await sessionUserOf(person.cookie))?.email).toBe(newEmail);
    expect((await signIn(newEmail, person.password)).status).toBe(200);
  });
});
