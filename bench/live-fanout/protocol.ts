/**
 * Wall-clock milliseconds with sub-millisecond precision, comparable between the writer and the
 * listeners' process (both on this machine's clock): the time origin is the epoch time of the
 * process's start, and performance.now() is monotonic from there.
 */
export const now = () => performance.timeOrigin + performance.now();

/** What run.ts asks of the listeners' process (listeners.ts), over the fork's IPC channel. */
export type ListenerCommand =
  | { type: 'open'; url: string; count: number; batch: number; eventId: string; ticketTypeId: string }
  | { type: 'waitRemaining'; atMost: number; timeoutMs: number }
  | { type: 'collect' }
  | { type: 'close' };

/** Every value of `remaining` one listener received in a `changes` message, with when it arrived. */
export interface Receipts {
  remaining: number[];
  at: number[];
}

export type ListenerReply =
  | { type: 'opened'; ms: number; remaining: number[] }
  | { type: 'reached'; count: number }
  | { type: 'collected'; receipts: Receipts[]; messages: number; errors: string[] }
  | { type: 'closed' }
  | { type: 'failed'; error: string };
