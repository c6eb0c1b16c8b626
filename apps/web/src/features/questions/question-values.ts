import type { QuestionCondition, QuestionKind, QuestionRow } from '@admit/shared/questions';
import { isChoiceKind } from './question-words';

/** What the question form holds: the contract's fields, with the condition as two fields of its own. */
export interface QuestionValues {
  label: string;
  help: string;
  kind: QuestionKind;
  /** Two fields at least, kept while another kind is chosen; sent for a choice question only. */
  options: string[];
  required: boolean;
  ticketTypeIds: string[];
  /** The earlier choice question this one depends on; null: always shown. */
  conditionQuestionId: string | null;
  /** Its options that show this one; none: always shown. */
  conditionValues: string[];
  onScanner: boolean;
}

/**
 * The form's values for a question, or for a new one. A condition keeps only what can still be
 * chosen: an earlier choice question (`sources`), and options it still has (they may have changed).
 */
export function valuesOf(question: QuestionRow | undefined, sources: readonly QuestionRow[]): QuestionValues {
  const source = sources.find((candidate) => candidate.id === question?.showIf?.questionId);
  return {
    label: question?.label ?? '',
    help: question?.help ?? '',
    kind: question?.kind ?? 'text',
    options: question && question.options.length > 0 ? question.options : ['', ''],
    required: question?.required ?? false,
    ticketTypeIds: question?.ticketTypeIds ?? [],
    conditionQuestionId: source?.id ?? null,
    conditionValues: source ? (question?.showIf?.values ?? []).filter((value) => source.options.includes(value)) : [],
    onScanner: question?.onScanner ?? false,
  };
}

/** The fields both questions.create and questions.update take (the kind, and which question, are added by the caller). */
export function inputOf(values: QuestionValues, eventId: string) {
  const showIf: QuestionCondition | null =
    values.conditionQuestionId && values.conditionValues.length > 0
      ? { questionId: values.conditionQuestionId, values: values.conditionValues }
      : null;
  return {
    eventId,
    label: values.label,
    help: values.help,
    required: values.required,
    options: isChoiceKind(values.kind) ? values.options : [],
    ticketTypeIds: values.ticketTypeIds,
    showIf,
    onScanner: values.onScanner,
  };
}

/** A schema's or the server's path (`showIf.values.0`) as the form's field that shows it (`conditionValues`). */
const fieldOf = (path: string) =>
  path.startsWith('showIf.values') ? 'conditionValues' : path.startsWith('showIf') ? 'conditionQuestionId' : path;

/** Errors by the contract's paths, by the form's fields instead. */
export const renamed = (errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([path, message]) => [fieldOf(path), message]));
