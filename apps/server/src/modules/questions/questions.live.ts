import { eventQuestions } from '@admit/shared/questions';
import { defineLiveQuery } from '../../platform/live/live-query';
import { CallableError } from '../../platform/http/callable-error';
import { canSeeEvent, findEvent } from '../events/events.api';
import { questionsOf } from './question-list';
import { eventQuestionsTopic } from './topics';

/**
 * An event's questions in order, for whoever may see the event: its buyers answer them, its admins
 * manage them. Nothing in them is secret (the scanner mark says only where an answer is shown).
 */
export const eventQuestionsLive = defineLiveQuery(eventQuestions, {
  auth: 'optional',
  async load(params, ctx) {
    const found = await findEvent(ctx.db, params.eventId);
    if (!(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    return questionsOf(ctx.db, found.id);
  },
  topics: (params) => [eventQuestionsTopic(params.eventId)],
});

export const questionsLiveQueries = [eventQuestionsLive];
