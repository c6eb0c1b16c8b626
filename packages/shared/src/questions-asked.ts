import type { QuestionRow } from './questions';

// Which questions a ticket is asked, with no schema: the buyer's ticket picker uses it (decision
// 0050). questions.ts has the questions' schemas and re-exports these.

/** Whether a question is asked for tickets of a type. */
export const asksFor = (question: Pick<QuestionRow, 'ticketTypeIds'>, ticketTypeId: string) =>
  question.ticketTypeIds.length === 0 || question.ticketTypeIds.includes(ticketTypeId);

/**
 * The questions shown for one ticket, given its answers so far: those for its type whose condition
 * holds (the question it depends on is shown and has one of the condition's options).
 */
export function shownQuestions<Q extends QuestionRow>(
  questions: readonly Q[],
  ticketTypeId: string,
  answers: Partial<Record<string, unknown>>,
): Q[] {
  const shown = new Map<string, Q>();
  for (const question of questions) {
    if (!asksFor(question, ticketTypeId)) continue;
    const condition = question.showIf;
    if (condition) {
      if (!shown.has(condition.questionId)) continue;
      const answer = answers[condition.questionId];
      const chosen = Array.isArray(answer) ? answer : [answer];
      if (!chosen.some((value) => typeof value === 'string' && condition.values.includes(value))) continue;
    }
    shown.set(question.id, question);
  }
  return [...shown.values()];
}

/** Whether tickets of a type are asked anything: then each of them needs its answers. */
export const hasQuestionsFor = (questions: readonly QuestionRow[], ticketTypeId: string) =>
  questions.some((question) => asksFor(question, ticketTypeId));
