import { z } from 'zod';

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

export const CallableErrorCodeSchema = z.enum(callableErrorCodes as [CallableErrorCode, ...CallableErrorCode[]]);

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
export const CallableErrorBody = z.object({
  error: z.object({
    status: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type CallableErrorBody = z.infer<typeof CallableErrorBody>;

/** The body of an error answer, with the wire name of its code; details only when there are some. */
export function callableErrorBody(code: CallableErrorCode, message: string, details?: unknown): CallableErrorBody {
  return { error: { status: canonicalStatusOf[code], message, ...(details === undefined ? {} : { details }) } };
}

/** One field that failed its schema, as listed in an invalid-argument error's details. */
export const FieldIssue = z.object({ path: z.string(), message: z.string(), code: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

/** An `invalid-argument` answer's details: every field that is not valid. */
export const FieldIssuesDetails = z.object({ fields: z.array(FieldIssue) });
export type FieldIssuesDetails = z.infer<typeof FieldIssuesDetails>;

export function fieldIssuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    code: issue.code,
  }));
}

/** A callable's name follows `<capability>.<verb>`. */
export const callableNamePattern = /^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/;

export interface CallableContract<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  name: string;
  input: Input;
  output: Output;
}

/** Declares a callable's name and its input and output schemas; server and browser both use it. */
export function defineCallableContract<Input extends z.ZodType, Output extends z.ZodType>(
  name: string,
  input: Input,
  output: Output,
): CallableContract<Input, Output> {
  if (!callableNamePattern.test(name)) throw new Error(`Callable name ${name} is not <capability>.<verb>`);
  return { name, input, output };
}
