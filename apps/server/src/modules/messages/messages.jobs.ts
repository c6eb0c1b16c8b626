import { sendMessageBatchJob } from './send-message';

// The messages module's background work: each batch of a message's people is one job, enqueued with
// the message; a batch tried again sends to each person once (send-message.ts).
export const messagesJobs = [sendMessageBatchJob];
