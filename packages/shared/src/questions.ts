import { z } from 'zod';
import { defineCallableContract } from './callable';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';
import { oneLine } from './text';

// Questions an event's admins ask each attendee (decision 0048): per ticket, at checkout, before
// paying. A question may be for some ticket types only, and may be shown only when an earlier choice
// question has one of some answers. The answers of one ticket are checked by one schema built from
// the question list (attendeeAnswers), in the browser as the buyer types and on the server.

export const QuestionKind = z.enum([
  'text',
  'longText',
  'choice',
  'choices',
  'checkbox',
  'number',
  'date',
  'email',
  'phone',
  'country',
]);
export type QuestionKind = z.infer<typeof QuestionKind>;

/** The kinds whose answers are among the question's options: the only ones a condition can read. */
export const choiceKinds: readonly QuestionKind[] = ['choice', 'choices'];

export const questionLimits = { perEvent: 50, options: 50, ticketTypes: 100, text: 200, longText: 2_000 } as const;

/** No control characters (a long answer keeps its line breaks: question-answers.ts). */
export { oneLine };

const OptionText = z.string().trim().min(1).max(100).regex(oneLine, 'No control characters');

/** Shown only when the earlier choice question `questionId` was answered with one of `values` (its options). */
export const QuestionCondition = z.strictObject({
  questionId: Id,
  values: z.array(OptionText).min(1).max(questionLimits.options),
});
export type QuestionCondition = z.infer<typeof QuestionCondition>;

const QuestionFields = {
  label: z.string().trim().min(1).max(200).regex(oneLine, 'No control characters'),
  /** A line under the question (what it is for, a format). */
  help: z.string().trim().max(500).regex(oneLine, 'No control characters').default(''),
  required: z.boolean().default(false),
  /** A choice question's answers, in the order shown; what an answer is stored as (and exported). */
  options: z
    .array(OptionText)
    .max(questionLimits.options)
    .default([])
    .refine((options) => new Set(options).size === options.length, 'Each option appears once'),
  /** Asked for tickets of these types; none: of every type. */
  ticketTypeIds: z.array(Id).max(questionLimits.ticketTypes).default([]),
  showIf: QuestionCondition.nullable().default(null),
  /** Its answer is shown on the scanner's verdict ("Wheelchair: Yes"). */
  onScanner: z.boolean().default(false),
};

const optionsFit = (input: { kind: QuestionKind; options: string[] }) =>
  choiceKinds.includes(input.kind) ? input.options.length >= 2 : input.options.length === 0;
const optionsMessage = { path: ['options'], message: 'A choice question has two options or more' };

export const CreateQuestionInput = z
  .strictObject({ eventId: Id, kind: QuestionKind, ...QuestionFields })
  .refine(optionsFit, optionsMessage);
export type CreateQuestionInput = z.input<typeof CreateQuestionInput>;
export const createQuestion = defineCallableContract(
  'questions.create',
  CreateQuestionInput,
  z.object({ questionId: z.string() }),
);

/** The same fields but the kind, which stays what it was: answers given are of that kind. */
export const UpdateQuestionInput = z.strictObject({ eventId: Id, questionId: Id, ...QuestionFields });
export type UpdateQuestionInput = z.input<typeof UpdateQuestionInput>;
export const updateQuestion = defineCallableContract('questions.update', UpdateQuestionInput, z.object({}));

/** Answers given to it are no longer shown or exported. Refused while a later question depends on it. */
export const deleteQuestion = defineCallableContract(
  'questions.delete',
  z.strictObject({ eventId: Id, questionId: Id }),
  z.object({}),
);

/** One place up or down the list; refused when a question would come before the one it depends on. */
export const moveQuestion = defineCallableContract(
  'questions.move',
  z.strictObject({ eventId: Id, questionId: Id, direction: z.enum(['up', 'down']) }),
  z.object({}),
);

export const QuestionRow = z.object({
  id: z.string(),
  position: z.number(),
  kind: QuestionKind,
  label: z.string(),
  help: z.string(),
  required: z.boolean(),
  options: z.array(z.string()),
  ticketTypeIds: z.array(z.string()),
  showIf: QuestionCondition.nullable(),
  onScanner: z.boolean(),
});
export type QuestionRow = z.infer<typeof QuestionRow>;

/** An event's questions in their order, live: for its admins, and for buyers, who answer them. */
export const eventQuestions = defineLiveQueryContract('questions.ofEvent', z.strictObject({ eventId: Id }), QuestionRow);

/** What an answer is: text, options chosen, a checked box, a number. */
export type AnswerValue = string | number | boolean | string[];
/** One ticket's answers, by question id; an unanswered question has no entry. */
export type Answers = Record<string, AnswerValue>;
/** Answers as a request carries them, before they are checked against the event's questions. */
export const AnswersInput = z
  .record(
    z.string().max(64),
    z.union([
      z.string().max(questionLimits.longText),
      z.number(),
      z.boolean(),
      z.array(z.string().max(100)).max(questionLimits.options),
      z.null(),
    ]),
  )
  .refine((answers) => Object.keys(answers).length <= questionLimits.perEvent, 'Too many answers');

export * from './questions-asked';

/** One answer to show (order pages, the scanner): the question's words and what was answered. */
export const ShownAnswer = z.object({
  questionId: z.string(),
  label: z.string(),
  kind: QuestionKind,
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
});
export type ShownAnswer = z.infer<typeof ShownAnswer>;

/** A ticket's answers in the questions' order, with their words; answers to deleted questions are left out. */
export function shownAnswers(
  questions: readonly QuestionRow[],
  answers: Answers,
  only?: (question: QuestionRow) => boolean,
): ShownAnswer[] {
  return questions
    .filter((question) => answers[question.id] !== undefined && (only?.(question) ?? true))
    .map((question) => ({ questionId: question.id, label: question.label, kind: question.kind, value: answers[question.id]! }));
}

/** A buyer changes one ticket's answers, until the event starts. */
export const changeAnswers = defineCallableContract(
  'orders.changeAnswers',
  // accessToken: a guest's, the token of the order (emailed to them).
  z.strictObject({
    orderId: Id,
    ticketId: Id,
    answers: AnswersInput,
    accessToken: z
      .string()
      .regex(/^[A-Za-z0-9_-]{20,100}$/)
      .optional(),
  }),
  z.object({}),
);

export const questionFailures = [
  /** A later question is shown depending on this one's answers (`by` is its label): change that one first. */
  z.object({ reason: z.literal('question-in-use'), by: z.string() }),
  /**
   * The condition names no earlier choice question of the event, or options it does not have; or a
   * question would come before the one it depends on.
   */
  z.object({ reason: z.literal('bad-condition') }),
  /** The event has as many questions as it may. */
  z.object({ reason: z.literal('too-many-questions'), limit: z.number() }),
  /** Answers can be changed until the event starts. */
  z.object({ reason: z.literal('answers-closed') }),
] as const;
