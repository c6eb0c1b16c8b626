import type { CallableErrorCode, FieldIssuesDetails } from '@admit/shared/callable';
import type { FailureDetails, PermissionDeniedDetails } from '@admit/shared/failures';
import type { SoldOutDetails } from '@admit/shared/orders';

/**
 * What an error may carry for the caller: a declared failure reason, the sold-out counts, the role
 * that was missing, or the fields that are not valid. Declared in packages/shared, so that the
 * browser reads them typed.
 */
export type CallableErrorDetails =
  FailureDetails | SoldOutDetails | PermissionDeniedDetails | FieldIssuesDetails | { sqlState: string };

/** The one error a callable throws on purpose: a code of the protocol, a message for people, optional details. */
export class CallableError extends Error {
  constructor(
    readonly code: CallableErrorCode,
    message: string,
    readonly details?: CallableErrorDetails,
  ) {
    super(message);
    this.name = 'CallableError';
  }
}

const connectionErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03']);

/** A database failure's code (SQLSTATE, or the connection's), from the driver's error or the one it wraps. */
export function databaseErrorCode(error: unknown): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  const found = typeof code === 'string' ? code : cause?.code;
  return typeof found === 'string' ? found : undefined;
}

/**
 * What a database failure means to the caller: a dropped or refused connection is `unavailable`
 * (retry is safe), a serialization failure or deadlock is `aborted`, a unique violation
 * `already-exists`. Anything else is a bug and stays `internal`.
 */
export function callableErrorFromDatabase(error: unknown): CallableError | undefined {
  const code = databaseErrorCode(error);
  if (code === undefined) return undefined;
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
