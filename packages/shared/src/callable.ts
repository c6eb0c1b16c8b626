import { z } from 'zod';
import {
  callableErrorCodes,
  canonicalStatusOf,
  type CallableErrorBody,
  type CallableErrorCode,
  type FieldIssue,
} from './callable-errors';

export * from './callable-errors';

export const CallableErrorCodeSchema = z.enum(callableErrorCodes as [CallableErrorCode, ...CallableErrorCode[]]);

/** The body of an error answer, with the wire name of its code; details only when there are some. */
export function callableErrorBody(code: CallableErrorCode, message: string, details?: unknown): CallableErrorBody {
  return { error: { status: canonicalStatusOf[code], message, ...(details === undefined ? {} : { details }) } };
}

export function fieldIssuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    code: issue.code,
  }));
}

/** A callable's name follows `<capability>.<verb>`. */
export const callableNamePattern = /^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/;

export interface CallableContract<
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
  Name extends string = string,
> {
  name: Name;
  input: Input;
  output: Output;
}

/** Declares a callable's name and its input and output schemas; server and browser both use it. */
export function defineCallableContract<const Name extends string, Input extends z.ZodType, Output extends z.ZodType>(
  name: Name,
  input: Input,
  output: Output,
): CallableContract<Input, Output, Name> {
  if (!callableNamePattern.test(name)) throw new Error(`Callable name ${name} is not <capability>.<verb>`);
  return { name, input, output };
}
