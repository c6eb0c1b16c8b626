import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embedSiteOf, setEmbedSites } from '@admit/shared/embed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTicketTypeAs, createEventAs, createOrgAs, publishAs } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

// The sites an event's checkout may be embedded on (decision 0061): the list an admin sets, the
// frame-ancestors the embedded page is sent with, and the answer embed.js gets before it draws a frame.

let t: TestApp;
let web: string;
let admin: string;
let eventId: string;
let slug: string;

beforeAll(async () => {
  web = mkdtempSync(path.join(tmpdir(), 'admit-embed-'));
  mkdirSync(path.join(web, 'dist'));
  writeFileSync(path.join(web, 'dist', 'index.html'), '<!doctype html><title>Admit</title>');
  writeFileSync(path.join(web, 'dist', 'embed.js'), 'customElements.define("admit-tickets", class extends HTMLElement {});');
  t = await createTestApp({ webDistDir: path.join(web, 'dist') });
  admin = (await t.signUp('Ada Admin')).cookie;
  const { organizationId } = await createOrgAs(t, admin);
  ({ eventId, slug } = await createEventAs(t, admin, organizationId));
  await addTicketTypeAs(t, admin, eventId, { capacity: 10 });
  await publishAs(t, admin, eventId);
});
afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('the sites allowed to embed an event', () => {
  it('keeps an address as its origin and refuses paths, other schemes, user names and wildcards', () => {
    expect(embedSiteOf(' https://Example.org/ ')).toBe('https://example.org');
    expect(embedSiteOf('https://shop.example.org:8443')).toBe('https://shop.example.org:8443');
    expect(embedSiteOf('http://127.0.0.1:4100')).toBe('http://127.0.0.1:4100');
    for (const refused of [
      'example.org',
      'https://example.org/tickets',
      'https://example.org/?a=1',
      'ftp://example.org',
      'javascript:alert(1)',
      'https://user@example.org',
      'https://*.example.org',
      "https://example.org 'unsafe-inline'",
      'https://example.org;script-src *',
    ])
      expect(embedSiteOf(refused), refused).toBeNull();
  });

  it('are set by an admin, each once, and a bad one is refused with the field it is in', async () => {
    const refused = await t.call(setEmbedSites, { eventId, sites: ['https://ok.example', 'https://bad.example/path'] }, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields[0].path).toBe('sites.1');

    const set = await t.call(
      setEmbedSites,
      { eventId, sites: ['https://club.example/', 'https://club.example', 'http://127.0.0.1:4100'] },
      admin,
    );
    expect(set.status).toBe(200);
    expect(set.body.result.sites).toEqual(['https://club.example', 'http://127.0.0.1:4100']);
  });

  it('are refused to a person outside the organization as if the event did not exist', async () => {
    const stranger = (await t.signUp('Sam Stranger')).cookie;
    const refused = await t.call(setEmbedSites, { eventId, sites: ['https://evil.example'] }, stranger);
    expect(refused.status).toBe(404);
  });
});

describe('the embedded page', () => {
  it('may be framed by the listed sites only, while every other page keeps refusing frames', async () => {
    const embedded = await get(`/embed/e/${slug}`);
    expect(embedded.statusCode).toBe(200);
    const policy = String(embedded.headers['content-security-policy']);
    expect(policy).toMatch(/frame-ancestors 'self' https:\/\/club\.example http:\/\/127\.0\.0\.1:4100(;|$)/);
    expect(policy.match(/frame-ancestors/g)).toHaveLength(1);
    expect(embedded.headers['x-frame-options']).toBeUndefined();

    const eventPage = await get(`/e/${slug}`);
    expect(String(eventPage.headers['content-security-policy'])).toMatch(/frame-ancestors 'self'(;|$)/);
    expect(eventPage.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('tells embed.js, from any site, whether the page it is on may show the frame', async () => {
    const allowed = await get(`/embed/e/${slug}/allowed?origin=${encodeURIComponent('https://club.example')}`);
    expect(allowed.headers['access-control-allow-origin']).toBe('*');
    expect(allowed.json()).toEqual({ allowed: true, title: 'Jazz night', url: expect.stringMatching(new RegExp(`/e/${slug}$`)) });
    const other = await get(`/embed/e/${slug}/allowed?origin=${encodeURIComponent('https://other.example')}`);
    expect(other.json().allowed).toBe(false);
    expect((await get('/embed/e/no-such-event/allowed?origin=x')).statusCode).toBe(404);
  });

  it('serves embed.js to other sites with a short cache', async () => {
    const script = await get('/embed.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(script.headers['cache-control']).toBe('public, max-age=300');
  });
});
