import { cancelEventOrdersJob } from './cancel-event-orders';
import { sendRefundJob } from './refund-order';

// The payments module's background work: a refund the provider could not take at once is sent
// again by its own job (with its key), and a cancelled event's orders are ended by one job that
// resumes where a crash left it. Their names keep the `orders.` prefix they were queued under.
export const paymentsJobs = [sendRefundJob, cancelEventOrdersJob];
