import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveQueries } from './app';
import { timeZoneOf } from './first-view';
import { readAsVisitor, type LiveContext } from './platform/live/live-query';
import { createEventAs, createOrgAs, createPublishedEvent } from './testing/fixtures';
import { createTestApp, type TestApp } from './testing/test-app';

// The server's side of a public page's first view (decision 0049): the rows it draws the page with
// are those a visitor who is not signed in would get on the socket, the viewer's zone comes from a
// cookie only when it is a real zone, and the page's one inline script runs by its hash alone.
// The drawing itself, by the web app's server build, is walked through in e2e/first-view.test.ts.

let t: TestApp;
let dist: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
const inlineScript = "document.documentElement.setAttribute('data-mantine-color-scheme', 'light');";

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'admit-first-view-'));
  writeFileSync(
    path.join(dist, 'index.html'),
    `<!doctype html><html lang="en"><head><title>Admit</title><script>${inlineScript}</script></head><body><div id="root"></div></body></html>`,
  );
  t = await createTestApp({ webDistDir: dist });
  owner = await t.signUp('Olga Organizer');
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const queries = new Map(liveQueries.map((query) => [query.contract.name, query]));
const visitor = (): LiveContext => ({ db: t.db, user: null, clientAddress: '127.0.0.1', log: t.app.log });

describe('the rows a public page’s first view is drawn with', () => {
  it('are a published event’s as a visitor gets them, as JSON, even when the one asking is signed in', async () => {
    const { slug, eventId } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ name: 'Standing', capacity: 20, price: 2500 }],
    });
    const [row] = (await readAsVisitor(queries, 'events.public', { slug }, visitor()))!;
    expect(row).toMatchObject({ id: eventId, slug, status: 'published', remaining: 20 });
    expect(typeof (row as Record<string, unknown>).startsAt).toBe('string');
    const types = await readAsVisitor(queries, 'events.availability', { eventId }, { ...visitor(), user: owner.user as never });
    expect(types).toEqual([expect.objectContaining({ name: 'Standing', price: 2500 })]);
  });

  it('are none for a draft, a query only the signed-in may watch, an unknown query or parameters it refuses', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const { slug } = await createEventAs(t, owner.cookie, organizationId);
    await expect(readAsVisitor(queries, 'events.public', { slug }, visitor())).resolves.toBeNull();
    await expect(readAsVisitor(queries, 'events.forOrg', { organizationId }, visitor())).resolves.toBeNull();
    await expect(readAsVisitor(queries, 'events.nothing', {}, visitor())).resolves.toBeNull();
    await expect(readAsVisitor(queries, 'events.public', { slug: 42 }, visitor())).resolves.toBeNull();
  });
});

describe('the viewer’s time zone a first view is drawn with', () => {
  it('is the cookie’s when this machine knows that zone, else none', () => {
    expect(timeZoneOf('admit.locale=de; admit-tz=America%2FNew_York')).toBe('America/New_York');
    expect(timeZoneOf('admit-tz=Europe/Berlin')).toBe('Europe/Berlin');
    expect(timeZoneOf('admit-tz=Mars%2FOlympus')).toBeNull();
    expect(timeZoneOf(`admit-tz=${'A'.repeat(65)}`)).toBeNull();
    expect(timeZoneOf('admit-tz=%E0%A4%A')).toBeNull();
    expect(timeZoneOf(undefined)).toBeNull();
  });
});

describe('the page’s inline script', () => {
  it('is allowed by its SHA-256, and no inline script else', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/accessibility' });
    const policy = String(response.headers['content-security-policy']);
    const scriptSources = /script-src ([^;]*)/.exec(policy)![1]!.split(' ');
    expect(scriptSources).toContain(`'sha256-${createHash('sha256').update(inlineScript).digest('base64')}'`);
    expect(scriptSources).not.toContain("'unsafe-inline'");
  });
});

describe('the event list’s page, made for each request', () => {
  it('is compressed as the browser takes it, and never kept without asking', async () => {
    const get = (encoding?: string) =>
      t.app.inject({ method: 'GET', url: '/', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const brotli = await get('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toContain('<div id="root"></div>');
    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<title>Admit</title>');
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<title>Admit</title>');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.vary).toContain('accept-encoding');
  });
});
