import { attendeeAnswers } from '@admit/shared/question-answers';
import { hasQuestionsFor, type Answers, type QuestionRow } from '@admit/shared/questions';
import { asc, eq } from 'drizzle-orm';
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
const recent = new Map<string, { questions: Promise<QuestionRow[]>; until: number }>();

/**
 * An event's questions as read at most a second ago by this process: during a rush the orders of
 * an event that asks nothing learn so without a query each (orders/create-order.ts).
 */
export function recentQuestions(db: Db, eventId: string): Promise<QuestionRow[]> {
  const cached = recent.get(eventId);
  if (cached && cached.until > Date.now()) return cached.questions;
  if (recent.size > 10_000) recent.clear();
  const questions = questionsOf(db, eventId);
  recent.set(eventId, { questions, until: Date.now() + maxAgeMs });
  questions.catch(() => recent.delete(eventId));
  return questions;
}
