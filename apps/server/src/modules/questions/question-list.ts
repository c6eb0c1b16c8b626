import { attendeeAnswers } from '@admit/shared/question-answers';
import { hasQuestionsFor, type Answers, type QuestionRow } from '@admit/shared/questions';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { eventQuestion } from './schema';

/** An event's questions in the order they are asked (position; the older first when two share one). */
export async function questionsOf(db: Db | Tx, eventId: string): Promise<QuestionRow[]> {
  const rows = await db
    .select()
    .from(eventQuestion)
    .where(eq(eventQuestion.eventId, eventId))
    .orderBy(asc(eventQuestion.position), asc(eventQuestion.createdAt), asc(eventQuestion.id));
  return rows.map((row, index) => ({
    id: row.id,
    position: index,
    kind: row.kind,
    label: row.label,
    help: row.help,
    required: row.required,
    options: row.options,
    ticketTypeIds: row.ticketTypeIds,
    showIf: row.showIf ?? null,
    onScanner: row.onScanner,
  }));
}

/**
 * Each ticket's answers of an order's lines, checked against the event's questions with the schema
 * the browser checks them with: for a type asked anything, one set of answers per ticket, else
 * none. Refused as `invalid-argument` naming every wrong answer (`lines.0.answers.1.<question id>`);
 * what comes back keeps the shown questions' answers only.
 */
export function checkOrderAnswers(
  questions: readonly QuestionRow[],
  lines: readonly { ticketTypeId: string; quantity: number; answers?: readonly unknown[] | undefined }[],
): Answers[][] {
  const fields: { path: string; message: string; code: string }[] = [];
  const checked = lines.map((line, lineIndex) => {
    if (!hasQuestionsFor(questions, line.ticketTypeId)) return [];
    const given = line.answers ?? [];
    if (given.length !== line.quantity) {
      fields.push({
        path: `lines.${lineIndex}.answers`,
        message: `Answers for each of the ${line.quantity} tickets`,
        code: 'custom',
      });
      return [];
    }
    const schema = attendeeAnswers(questions, line.ticketTypeId);
    return given.map((answers, ticketIndex) => {
      const parsed = schema.safeParse(answers);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues)
        fields.push({
          path: [`lines`, lineIndex, 'answers', ticketIndex, ...issue.path].join('.'),
          message: issue.message,
          code: issue.code,
        });
      return {};
    });
  });
  // The first hundred: enough to show every wrong answer of a form, and a bounded answer to a bad request.
  if (fields.length > 0)
    throw new CallableError('invalid-argument', 'Some answers are not valid', { fields: fields.slice(0, 100) });
  return checked;
}

/** One ticket's new answers, checked as at checkout; refused naming each wrong answer (`answers.<question id>`). */
export function checkTicketAnswers(questions: readonly QuestionRow[], ticketTypeId: string, answers: unknown): Answers {
  const parsed = attendeeAnswers(questions, ticketTypeId).safeParse(answers);
  if (parsed.success) return parsed.data;
  throw new CallableError('invalid-argument', 'Some answers are not valid', {
    fields: parsed.error.issues.map((issue) => ({
      path: ['answers', ...issue.path].join('.'),
      message: issue.message,
      code: issue.code,
    })),
  });
}

const maxAgeMs = 1_000;
const recent = new Map<string, { read: Promise<RecentQuestions>; until: number }>();

/** An event's questions as read, and the version of them that the read saw (questionsVersionSql). */
export interface RecentQuestions {
  questions: QuestionRow[];
  version: string;
}

/**
 * The version of an event's questions, as an SQL expression: how many, and when one last changed
 * (a trigger sets `updated_at` on every change), to the microsecond. A statement that relies on
 * questions read earlier compares it with the version read with them (orders/place-order.ts).
 */
export function questionsVersionSql(eventId: string): SQL {
  return sql`(select count(*)::text || ':' || coalesce(extract(epoch from max(updated_at))::text, '')
                from event_question where event_id = ${eventId})`;
}

/**
 * An event's questions as read at most a second ago by this process, with their version: during a
 * rush the orders of an event learn what it asks without a query each (orders/create-order.ts).
 * The version is read first: a change between the two reads makes it older than the questions, so
 * a statement comparing it finds it changed and makes nothing, rather than trusting a stale list.
 */
export function recentQuestionSet(db: Db, eventId: string): Promise<RecentQuestions> {
  const cached = recent.get(eventId);
  if (cached && cached.until > Date.now()) return cached.read;
  if (recent.size > 10_000) recent.clear();
  const read = (async () => {
    const result = await db.execute(sql`select ${questionsVersionSql(eventId)} as version`);
    const [row] = (result as unknown as { rows: { version: string }[] }).rows;
    return { version: row!.version, questions: await questionsOf(db, eventId) };
  })();
  recent.set(eventId, { read, until: Date.now() + maxAgeMs });
  read.catch(() => recent.delete(eventId));
  return read;
}

/** An event's questions as read at most a second ago by this process. */
export async function recentQuestions(db: Db, eventId: string): Promise<QuestionRow[]> {
  return (await recentQuestionSet(db, eventId)).questions;
}
