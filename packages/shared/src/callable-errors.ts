// The callable protocol's errors, with no schema library: what a browser needs to read an answer
// that failed, on the first load of any page (decision 0050). callable.ts has the rest.

/** The closed set of callable error codes and the HTTP status each one is sent with (see docs/contracts.md). */
export const callableErrorHttpStatus = {
  'invalid-argument': 400,
  'failed-precondition': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'already-exists': 409,
  aborted: 409,
  'resource-exhausted': 429,
  cancelled: 499,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
  'deadline-exceeded': 504,
} as const;

export type CallableErrorCode = keyof typeof callableErrorHttpStatus;

export const callableErrorCodes = Object.keys(callableErrorHttpStatus) as CallableErrorCode[];

/**
 * The code a client reports when a failure has no readable body: only the HTTP status is known.
 * 0 stands for a network failure (no response at all).
 */
export function callableErrorCodeFromHttpStatus(httpStatus: number): CallableErrorCode {
  switch (httpStatus) {
    case 400:
      return 'invalid-argument';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission-denied';
    case 404:
      return 'not-found';
    case 409:
      return 'aborted';
    case 429:
      return 'resource-exhausted';
    case 499:
      return 'cancelled';
    case 501:
      return 'unimplemented';
    case 503:
      return 'unavailable';
    case 504:
      return 'deadline-exceeded';
    default:
      return 'internal';
  }
}

/**
 * The status name each code has on the wire: the canonical upper-case names of the callable
 * protocol (Firebase's), so that any client of that protocol reads our errors.
 */
export const canonicalStatusOf = {
  'invalid-argument': 'INVALID_ARGUMENT',
  'failed-precondition': 'FAILED_PRECONDITION',
  unauthenticated: 'UNAUTHENTICATED',
  'permission-denied': 'PERMISSION_DENIED',
  'not-found': 'NOT_FOUND',
  'already-exists': 'ALREADY_EXISTS',
  aborted: 'ABORTED',
  'resource-exhausted': 'RESOURCE_EXHAUSTED',
  cancelled: 'CANCELLED',
  internal: 'INTERNAL',
  unimplemented: 'UNIMPLEMENTED',
  unavailable: 'UNAVAILABLE',
  'deadline-exceeded': 'DEADLINE_EXCEEDED',
} as const satisfies Record<CallableErrorCode, string>;
export type CanonicalStatus = (typeof canonicalStatusOf)[CallableErrorCode];

const codeOfCanonical = new Map<string, CallableErrorCode>(
  Object.entries(canonicalStatusOf).map(([code, status]) => [status, code as CallableErrorCode]),
);

/**
 * The code of a status name read from the wire, as a client maps it. A name that is not ours (a
 * newer server, another protocol's UNKNOWN or DATA_LOSS) is `internal`, never a guess.
 */
export function callableErrorCodeOf(status: unknown): CallableErrorCode {
  return (typeof status === 'string' && codeOfCanonical.get(status)) || 'internal';
}

/** An error as it is sent: `{"error": {"status": "NOT_FOUND", "message": …, "details": …}}`. */
export interface CallableErrorBody {
  error: { status: string; message: string; details?: unknown };
}

/** The error in an answer's body, or null when the body is not an error as the protocol sends one. */
export function errorOfBody(body: unknown): CallableErrorBody['error'] | null {
  if (!body || typeof body !== 'object' || !('error' in body)) return null;
  const { error } = body;
  if (!error || typeof error !== 'object') return null;
  const { status, message, details } = error as Record<string, unknown>;
  if (typeof status !== 'string' || typeof message !== 'string') return null;
  return { status, message, ...(details === undefined ? {} : { details }) };
}

/** One field that failed its schema, as listed in an invalid-argument error's details. */
export interface FieldIssue {
  path: string;
  message: string;
  code: string;
}

/** An `invalid-argument` answer's details: every field that is not valid. */
export interface FieldIssuesDetails {
  fields: FieldIssue[];
}

/** The fields an `invalid-argument` answer's details list as not valid; none when they list none. */
export function fieldIssuesIn(details: unknown): FieldIssue[] {
  const fields = details && typeof details === 'object' && 'fields' in details ? details.fields : undefined;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (field): field is FieldIssue =>
      typeof field === 'object' &&
      field !== null &&
      typeof field.path === 'string' &&
      typeof field.message === 'string' &&
      typeof field.code === 'string',
  );
}
