import { randomUUID } from 'node:crypto';
import { and, gt, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { verification } from './schema';

// The time of an answer must not tell whether an address has an account. Measured as the ratio of
// the median answer times of known and unknown addresses, asked in turn so that whatever else the
// machine is doing falls on both alike; never as a bound in milliseconds (decision 0028).

let t: TestApp;
let person: Awaited<ReturnType<TestApp['signUp']>>;
const origin = 'http://localhost:3000';

beforeAll(async () => {
  t = await createTestApp();
  person = await t.signUp('Tim Timing');
});
afterAll(() => t?.close());

async function timedPost(path: string, payload: unknown): Promise<number> {
  const started = performance.now();
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin },
    payload: JSON.stringify(payload),
  });
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The ratio of the median times of `known()` and `unknown()`, called in turn `rounds` times after a few unmeasured ones. */
async function ratioOfMedians(rounds: number, known: () => Promise<number>, unknown: () => Promise<number>) {
  for (let warm = 0; warm < 3; warm++) {
    await known();
    await unknown();
  }
  const knownTimes: number[] = [];
  const unknownTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Which goes first alternates too, so that neither always meets a warmer cache.
    if (round % 2 === 0) {
      knownTimes.push(await known());
      unknownTimes.push(await unknown());
    } else {
      unknownTimes.push(await unknown());
      knownTimes.push(await known());
    }
  }
  return median(knownTimes) / median(unknownTimes);
}

/**
 * ratioOfMedians, measured again (up to five times in all) while it falls outside 1/band…band:
 * another process's burst can skew one measurement, even three in a row on a machine running the
 * suites side by side (CI, 29 November), while a real difference (a leak of 1.8× or of 0.8×, see
 * below) shows in every one.
 */
async function ratioWithin(band: number, rounds: number, known: () => Promise<number>, unknown: () => Promise<number>) {
  const ratios: number[] = [];
  for (let measurement = 0; measurement < 5; measurement++) {
    const ratio = await ratioOfMedians(rounds, known, unknown);
    ratios.push(ratio);
    if (ratio > 1 / band && ratio < band) break;
  }
  return { ratio: ratios.at(-1)!, ratios };
}

describe('the same work for known and unknown addresses', () => {
  it('answers a password reset for an address without an account as slowly as for one with (medians within 40%)', async () => {
    const { ratio, ratios } = await ratioWithin(
      1.4,
      30,
      () => timedPost('/request-password-reset', { email: person.email, redirectTo: '/reset-password' }),
      () => timedPost('/request-password-reset', { email: `nobody-${randomUUID()}@example.test`, redirectTo: '/reset-password' }),
    );
    // Before the same work was done, a known address took about twice as long (ratio 1.8 to 2.3).
    expect(ratio, `ratios measured: ${ratios.join(', ')}`).toBeGreaterThan(1 / 1.4);
    expect(ratio, `ratios measured: ${ratios.join(', ')}`).toBeLessThan(1.4);
  });

  it('leaves no reset token that could be used for an address without an account', async () => {
    const before = await t.db
      .select()
      .from(verification)
      .where(and(like(verification.identifier, 'reset-password:%'), gt(verification.expiresAt, new Date())));
    await timedPost('/request-password-reset', { email: `nobody-${randomUUID()}@example.test`, redirectTo: '/reset-password' });
    const after = await t.db
      .select()
      .from(verification)
      .where(and(like(verification.identifier, 'reset-password:%'), gt(verification.expiresAt, new Date())));
    expect(after).toHaveLength(before.length);
  });

  it('answers a sign-up with an address that has an account as slowly as with a new one (medians within 10%)', async () => {
    // Many rounds: hashing the password takes most of each answer and varies with the machine's load.
    const { ratio, ratios } = await ratioWithin(
      1.1,
      60,
      () => timedPost('/sign-up/email', { name: 'Tim Again', email: person.email, password: 'correct horse battery' }),
      () =>
        timedPost('/sign-up/email', {
          name: 'Tim New',
          email: `new-${randomUUID()}@example.test`,
          password: 'correct horse battery',
        }),
    );
    // Before, an existing address was 15 to 25% quicker (ratio 0.75 to 0.85 over 60 rounds).
    expect(ratio, `ratios measured: ${ratios.join(', ')}`).toBeGreaterThan(1 / 1.1);
    expect(ratio, `ratios measured: ${ratios.join(', ')}`).toBeLessThan(1.1);
  }, 540_000);
});
