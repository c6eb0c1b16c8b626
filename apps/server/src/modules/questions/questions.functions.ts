import {
  choiceKinds,
  createQuestion,
  deleteQuestion,
  moveQuestion,
  questionLimits,
  updateQuestion,
  type QuestionCondition,
  type QuestionRow,
} from '@admit/shared/questions';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Tx } from '../../platform/db/database';
import { defineCallable, type AuthedCallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole, type EventRecord } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { questionsOf } from './question-list';
import { eventQuestion } from './schema';
import { doorQuestionsTopic, eventQuestionsTopic } from './topics';

const badCondition = () =>
  new CallableError('failed-precondition', 'A question depends on an earlier choice question, and on its options', {
    reason: 'bad-condition',
  });

/**
 * The event's questions, with its row locked: one admin's change is made on the list as it is, not
 * as another's change left it a moment ago (positions, conditions), also when it has none yet.
 */
async function lockedQuestions(tx: Tx, eventId: string): Promise<QuestionRow[]> {
  await tx.select({ id: event.id }).from(event).where(eq(event.id, eventId)).for('update');
  return questionsOf(tx, eventId);
}

/** The change's topics: the door's list too when it touched a question whose answers the door shows. */
const changedTopics = (eventId: string, touchesDoor: boolean) =>
  touchesDoor ? [eventQuestionsTopic(eventId), doorQuestionsTopic(eventId)] : [eventQuestionsTopic(eventId)];

/** A condition reads a choice question that comes before, and only options that question has. */
function requireConditionOn(condition: QuestionCondition | null, before: readonly QuestionRow[]) {
  if (!condition) return;
  const source = before.find((question) => question.id === condition.questionId);
  if (!source || !choiceKinds.includes(source.kind) || !condition.values.every((value) => source.options.includes(value)))
    throw badCondition();
}

/** Ticket types named must be the event's. */
async function requireEventTypes(tx: Tx, eventId: string, ticketTypeIds: readonly string[]) {
  const types = await tx.select({ id: ticketType.id }).from(ticketType).where(eq(ticketType.eventId, eventId));
  const known = new Set(types.map((type) => type.id));
  const fields = ticketTypeIds
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => !known.has(id))
    .map(({ index }) => ({ path: `ticketTypeIds.${index}`, message: 'No such ticket type for this event', code: 'not_found' }));
  if (fields.length > 0) throw new CallableError('invalid-argument', 'The question is not valid', { fields });
}

/** The list is written back in its new order, positions 0, 1, 2… */
async function writeOrder(tx: Tx, questions: readonly QuestionRow[]) {
  for (const [position, question] of questions.entries())
    if (question.position !== position) await tx.update(eventQuestion).set({ position }).where(eq(eventQuestion.id, question.id));
}

async function audit(
  tx: Tx,
  found: EventRecord,
  actor: Parameters<typeof recordAudit>[1]['actor'],
  action: string,
  label: string,
) {
  await recordAudit(tx, { organizationId: found.organizationId, eventId: found.id, actor, action, target: label });
}

export const createQuestionCallable = defineCallable(createQuestion, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const questionId = randomUUID();
    await ctx.db.transaction(async (tx) => {
      const questions = await lockedQuestions(tx, found.id);
      if (questions.length >= questionLimits.perEvent)
        throw new CallableError('failed-precondition', 'The event has as many questions as it may', {
          reason: 'too-many-questions',
          limit: questionLimits.perEvent,
        });
      await requireEventTypes(tx, found.id, input.ticketTypeIds);
      // A new question comes last: every question is before it.
      requireConditionOn(input.showIf, questions);
      const { eventId: _eventId, ...fields } = input;
      await tx.insert(eventQuestion).values({ id: questionId, eventId: found.id, position: questions.length, ...fields });
      await audit(tx, found, ctx.user, 'question.add', input.label);
    });
    ctx.publish(...changedTopics(found.id, input.onScanner));
    return { questionId };
  },
});

/**
 * An admin's change to one question of the event: made on the locked list, the question found by
 * id (`not-found` otherwise); `change` says whether it touched a question the door shows, and the
 * watchers hear of it after the commit.
 */
async function changeQuestion(
  ctx: AuthedCallContext,
  input: { eventId: string; questionId: string },
  change: (list: { tx: Tx; found: EventRecord; questions: QuestionRow[]; index: number }) => Promise<boolean>,
) {
  const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
  const touchesDoor = await ctx.db.transaction(async (tx) => {
    const questions = await lockedQuestions(tx, found.id);
    const index = questions.findIndex((question) => question.id === input.questionId);
    if (index < 0) throw new CallableError('not-found', 'No such question');
    return change({ tx, found, questions, index });
  });
  ctx.publish(...changedTopics(found.id, touchesDoor));
  return {};
}

export const updateQuestionCallable = defineCallable(updateQuestion, {
  auth: 'required',
  handler: (input, ctx) =>
    changeQuestion(ctx, input, async ({ tx, found, questions, index }) => {
      const before = questions[index]!;
      if (choiceKinds.includes(before.kind) ? input.options.length < 2 : input.options.length > 0)
        throw new CallableError('invalid-argument', 'The question is not valid', {
          fields: [{ path: 'options', message: 'A choice question has two options or more', code: 'custom' }],
        });
      await requireEventTypes(tx, found.id, input.ticketTypeIds);
      requireConditionOn(input.showIf, questions.slice(0, index));
      // A later question that reads an option this one no longer has would never be shown.
      const dependent = questions.find(
        (question) =>
          question.showIf?.questionId === before.id && !question.showIf.values.every((value) => input.options.includes(value)),
      );
      if (dependent)
        throw new CallableError('failed-precondition', 'A later question depends on an option removed', {
          reason: 'question-in-use',
          by: dependent.label,
        });
      const { eventId: _eventId, questionId: _questionId, ...fields } = input;
      await tx.update(eventQuestion).set(fields).where(eq(eventQuestion.id, before.id));
      await audit(tx, found, ctx.user, 'question.update', input.label);
      return before.onScanner || input.onScanner;
    }),
});

export const deleteQuestionCallable = defineCallable(deleteQuestion, {
  auth: 'required',
  handler: (input, ctx) =>
    changeQuestion(ctx, input, async ({ tx, found, questions, index }) => {
      const question = questions[index]!;
      const dependent = questions.find((one) => one.showIf?.questionId === question.id);
      if (dependent)
        throw new CallableError('failed-precondition', 'A later question depends on this one', {
          reason: 'question-in-use',
          by: dependent.label,
        });
      await tx.delete(eventQuestion).where(and(eq(eventQuestion.id, question.id), eq(eventQuestion.eventId, found.id)));
      await writeOrder(
        tx,
        questions.filter((one) => one.id !== question.id),
      );
      await audit(tx, found, ctx.user, 'question.remove', question.label);
      return question.onScanner;
    }),
});

export const moveQuestionCallable = defineCallable(moveQuestion, {
  auth: 'required',
  handler: (input, ctx) =>
    changeQuestion(ctx, input, async ({ tx, found, questions, index }) => {
      const other = input.direction === 'up' ? index - 1 : index + 1;
      // At the top or the bottom already: nothing moves.
      if (other < 0 || other >= questions.length) return false;
      const moved = [...questions];
      [moved[index], moved[other]] = [moved[other]!, moved[index]!];
      moved.forEach((question, position) => requireConditionOn(question.showIf, moved.slice(0, position)));
      await writeOrder(tx, moved);
      await audit(tx, found, ctx.user, 'question.move', questions[index]!.label);
      // The door lists its answers in the questions' order.
      return questions[index]!.onScanner && questions[other]!.onScanner;
    }),
});

export const questionsCallables = [createQuestionCallable, updateQuestionCallable, deleteQuestionCallable, moveQuestionCallable];
