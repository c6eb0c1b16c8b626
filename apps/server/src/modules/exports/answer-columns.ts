import type { OrgRole } from '@admit/shared/orgs';
import type { AnswerValue, Answers, QuestionRow } from '@admit/shared/questions';
import type { Cell } from './export-definition';

/**
 * The attendee export's columns for the event's questions, one per question, headed by its words
 * (a second question worded the same gets " (2)"). Door staff get those marked for the scanner
 * only: they see those answers at the door anyway, and the others may be personal (health, diet).
 */
export function answerColumns(questions: readonly QuestionRow[], role: OrgRole) {
  const asked = role === 'staff' ? questions.filter((question) => question.onScanner) : [...questions];
  const seen = new Map<string, number>();
  const header = asked.map((question) => {
    const times = (seen.get(question.label) ?? 0) + 1;
    seen.set(question.label, times);
    return times === 1 ? question.label : `${question.label} (${times})`;
  });
  return {
    header,
    cells: (answers: Answers): Cell[] => asked.map((question) => cellOf(answers[question.id])),
  };
}

/** An answer as a spreadsheet reads it: options chosen joined by "; ", a checked box as "yes". */
function cellOf(value: AnswerValue | undefined): Cell {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.join('; ');
  if (typeof value === 'boolean') return value ? 'yes' : '';
  return value;
}
