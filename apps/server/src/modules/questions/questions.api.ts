// The questions module's surface: what app.ts composes and other modules may call.
export {
  checkOrderAnswers,
  checkTicketAnswers,
  questionsOf,
  questionsVersionSql,
  recentQuestions,
  recentQuestionSet,
  type RecentQuestions,
} from './question-list';
export { questionsCallables } from './questions.functions';
export { questionsLiveQueries } from './questions.live';
export { doorQuestionsTopic, eventQuestionsTopic } from './topics';
