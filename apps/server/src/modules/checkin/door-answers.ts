import { shownAnswers, type Answers, type ShownAnswer } from '@admit/shared/questions';
import type { Db } from '../../platform/db/database';
import { questionsOf, recentQuestions } from '../questions/questions.api';

/**
 * What the door shows of a ticket's answers: those to the questions the organizer marked for the
 * scanner. A scan reads the questions as this process saw them a second ago at most (every scan
 * needs them); the door's list reads them as they are (`fresh`): it is read again when they change,
 * and a mark taken off must leave every device.
 */
export async function doorAnswersOf(
  db: Db,
  eventId: string,
  { fresh }: { fresh: boolean },
): Promise<(answers: Answers) => ShownAnswer[]> {
  const marked = (await (fresh ? questionsOf(db, eventId) : recentQuestions(db, eventId))).filter(
    (question) => question.onScanner,
  );
  return (answers) => (marked.length === 0 ? [] : shownAnswers(marked, answers));
}
