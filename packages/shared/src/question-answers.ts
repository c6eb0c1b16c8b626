import { getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { asksFor, oneLine, questionLimits, shownQuestions, type AnswerValue, type Answers, type QuestionRow } from './questions';

// How one ticket's answers are checked (decision 0048), apart from the questions' contracts: the
// phone numbers' rules it reads are large, and only the checkout and the server need them.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const someLines = /^[^\u0000-\u0009\u000b-\u001f\u007f]*$/;

const countries = new Set<string>(getCountries());
/** ISO 3166 country codes ("DE"), as the country question stores them. */
export const countryCodes: readonly string[] = [...countries].sort();

/** The answer a question takes, once the empty ones are left out. */
function answerSchema(question: QuestionRow): z.ZodType<AnswerValue> {
  switch (question.kind) {
    case 'text':
      return z.string().trim().min(1).max(questionLimits.text).regex(oneLine, 'No control characters');
    case 'longText':
      return z.string().trim().min(1).max(questionLimits.longText).regex(someLines, 'No control characters');
    case 'choice':
      return z.enum(question.options as [string, ...string[]]);
    case 'choices':
      return z
        .array(z.enum(question.options as [string, ...string[]]))
        .min(1)
        .transform((chosen) => question.options.filter((option) => chosen.includes(option)));
    case 'checkbox':
      return z.literal(true);
    case 'number':
      return z.number().min(-1_000_000_000).max(1_000_000_000);
    case 'date':
      return z.iso.date();
    case 'email':
      return z.email().max(254);
    case 'phone':
      return z
        .string()
        .trim()
        .max(40)
        .refine((phone) => parsePhoneNumberFromString(phone)?.isValid() === true, 'Not a phone number')
        .transform((phone) => parsePhoneNumberFromString(phone)!.number);
    case 'country':
      return z.string().refine((code) => countries.has(code), 'Not a country');
  }
}

/** Nothing typed (or spaces only), nothing chosen, a box left unchecked: no answer. */
const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === false ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** The English messages of the checks below, which the browser shows in the buyer's language. */
export const answerMessages = { required: 'Answer this question', mustCheck: 'Check this box to go on' } as const;

/**
 * The schema of one ticket's answers, from the event's questions and the ticket's type: each shown
 * question's answer of its kind, the required ones given, every wrong one named at once (by
 * question id). What it gives back keeps the answers of the questions shown only, without the empty
 * ones; answers to other questions are left out unread. The browser checks a ticket's form with it
 * before sending; the server checks what it is sent with it again.
 */
export function attendeeAnswers(questions: readonly QuestionRow[], ticketTypeId: string) {
  const asked = questions.filter((question) => asksFor(question, ticketTypeId));
  return z.record(z.string(), z.unknown()).transform((raw, ctx): Answers => {
    const given = Object.fromEntries(
      asked.filter((question) => !isEmpty(raw[question.id])).map((question) => [question.id, raw[question.id]]),
    );
    const answers: Answers = {};
    for (const question of shownQuestions(asked, ticketTypeId, given)) {
      if (!(question.id in given)) {
        if (question.required)
          ctx.issues.push({
            code: 'custom',
            path: [question.id],
            message: question.kind === 'checkbox' ? answerMessages.mustCheck : answerMessages.required,
            input: raw[question.id],
          });
        continue;
      }
      const parsed = answerSchema(question).safeParse(given[question.id]);
      if (parsed.success) answers[question.id] = parsed.data;
      else for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, path: [question.id, ...issue.path] } as never);
    }
    return answers;
  });
}
