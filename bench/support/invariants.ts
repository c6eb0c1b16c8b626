import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from '../../apps/server/src/platform/db/database';
import { dataInvariantViolations } from '../../apps/server/src/testing/invariants';

/** The data invariants the server's tests check (no place sold twice, counters equal to their rows…), over everything a run wrote. */
export async function checkInvariants(pool: pg.Pool) {
  const violations = await dataInvariantViolations(drizzle(pool) as unknown as Db);
  console.log(violations.length === 0 ? 'invariants: all hold' : `invariants VIOLATED:\n  ${violations.join('\n  ')}`);
  return { violations, hold: violations.length === 0 };
}
