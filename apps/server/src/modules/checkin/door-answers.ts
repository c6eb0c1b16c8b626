import { shownAnswers, type Answers, type ShownAnswer } from '@admit/shared/questions';
import type { Db } from '../../platform/db/database';
import { recentQuestions } from '../questions/questions.api';

/**
 * What the door shows of a ticket's answers: those to the questions the organizer marked for the
 * scanner. Read as this process saw the questions a second ago at most: a scan of every ticket needs them.
 */
export async function doorAnswersOf(db: Db, eventId: string): Promise<(answers: Answers) => ShownAnswer[]> {
  const marked = (await recentQuestions(db, eventId)).filter((question) => question.onScanner);
  return (answers) => (marked.length === 0 ? [] : shownAnswers(marked, answers));
}
