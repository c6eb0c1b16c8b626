import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { buildEmbed } from '../../../../scripts/build-web.mjs';

// embed.js is on other sites' pages, loaded with theirs: it stays within 5 KB gzip (decision 0061).

const out = mkdtempSync(path.join(tmpdir(), 'admit-embed-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('builds embed.js as one script of at most 5 KB gzip, with no import of anything else', async () => {
  await buildEmbed(out);
  const script = readFileSync(path.join(out, 'embed.js'));
  expect(gzipSync(script, { level: 9 }).length).toBeLessThanOrEqual(5 * 1024);
  expect(script.toString()).not.toMatch(/\bimport\s*\(|\bimport\s+[\w{*]/);
  expect(script.toString()).toContain('admit-tickets');
}, 60_000);
