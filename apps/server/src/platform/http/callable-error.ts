import type { CallableErrorCode } from '@admit/shared/callable';

/** The one error a callable throws on purpose: a code from DESIGN §3.2, a message for people, optional details. */
export class CallableError extends Error {
  constructor(
    readonly code: CallableErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CallableError';
  }
}

const connectionErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03']);

/**
 * What a database failure means to the caller: a dropped or refused connection is `unavailable`
 * (retry is safe), a serialization failure or deadlock is `aborted`, a unique violation
 * `already-exists`. Anything else is a bug and stays `internal`.
 */
export function callableErrorFromDatabase(error: unknown): CallableError | undefined {
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code !== 'string') return undefined;
  if (connectionErrorCodes.has(code) || code.startsWith('08'))
    return new CallableError('unavailable', 'The database is unavailable; try again');
  if (code === '40001' || code === '40P01') return new CallableError('aborted', 'A concurrent change conflicted; try again');
  if (code === '23505') return new CallableError('already-exists', 'That already exists');
  // Data the database cannot store (a NUL character in a text, a date out of its range): bad input
  // that the schema let through, not a bug of ours.
  if (code.startsWith('22'))
    return new CallableError('invalid-argument', 'A value cannot be stored as given', { sqlState: code });
  return undefined;
}
