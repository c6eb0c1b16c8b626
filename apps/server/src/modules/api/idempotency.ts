import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { ApiProblem } from './problem';
import { apiIdempotency } from './schema';

/** How long a key's first answer is kept and replayed. */
const keptHours = 24;

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * Runs a POST once per `Idempotency-Key` and API key, as Stripe does: the same key with the same
 * request again, within 24 hours, gets the first answer again (with `Idempotent-Replayed: true`);
 * with another request it is refused (422); while the first is still under way, 409. The row is
 * claimed before the work, with one conditional insert, so two requests at once cannot both run.
 * A request that failed with a server error leaves no answer: it may be tried again with its key.
 */
export async function once(
  db: Db,
  input: { apiKeyId: string; key: string; request: unknown },
  work: () => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  const requestHash = createHash('sha256').update(JSON.stringify(input.request)).digest('hex');
  const expired = sql`${apiIdempotency.createdAt} < now() - ${keptHours}::int * interval '1 hour'`;
  const claimed = await db
    .insert(apiIdempotency)
    .values({ apiKeyId: input.apiKeyId, key: input.key, requestHash })
    .onConflictDoUpdate({
      target: [apiIdempotency.apiKeyId, apiIdempotency.key],
      set: { requestHash, status: null, body: null, createdAt: sql`now()` },
      setWhere: expired,
    })
    .returning({ key: apiIdempotency.key });
  if (claimed.length === 0) {
    const [first] = await db
      .select()
      .from(apiIdempotency)
      .where(and(eq(apiIdempotency.apiKeyId, input.apiKeyId), eq(apiIdempotency.key, input.key)));
    if (!first) throw new ApiProblem(409, 'idempotency-in-progress', 'A request with this Idempotency-Key is under way');
    if (first.requestHash !== requestHash)
      throw new ApiProblem(
        422,
        'idempotency-key-reused',
        'This Idempotency-Key was used for another request in the last 24 hours: use a new key for a new request',
      );
    if (first.status === null)
      throw new ApiProblem(409, 'idempotency-in-progress', 'A request with this Idempotency-Key is under way');
    if (first.status >= 400) {
      const refused = first.body as { problem: string; detail: string };
      throw new ApiProblem(first.status, refused.problem, refused.detail);
    }
    return { status: first.status, body: first.body, replayed: true };
  }
  const where = and(eq(apiIdempotency.apiKeyId, input.apiKeyId), eq(apiIdempotency.key, input.key));
  let answer: Answer;
  try {
    answer = await work();
  } catch (error) {
    // A refusal is an answer too (the same request would be refused again); anything else is not kept.
    if (error instanceof ApiProblem && error.status < 500) {
      await db
        .update(apiIdempotency)
        .set({ status: error.status, body: { problem: error.kind, detail: error.message } })
        .where(where);
    } else {
      await db.delete(apiIdempotency).where(where);
    }
    throw error;
  }
  await db.update(apiIdempotency).set({ status: answer.status, body: answer.body }).where(where);
  // Now and then, the answers older than a day go (one indexed delete, by whichever request is first).
  if (Math.random() < 0.01) await db.delete(apiIdempotency).where(expired);
  return { ...answer, replayed: false };
}
