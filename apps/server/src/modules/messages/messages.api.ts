// The messages module's surface: what app.ts composes and other modules may call.
export { countGuestMail, requireGuestMailAllowance } from './guest-mail';
export { messagesCallables } from './messages.functions';
export { messagesJobs } from './messages.jobs';
export { messagesLiveQueries } from './messages.live';
export { eventMessagesTopic } from './topics';
