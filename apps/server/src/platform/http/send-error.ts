import { callableErrorBody, callableErrorHttpStatus, type CallableErrorCode } from '@admit/shared/callable';
import type { FastifyReply } from 'fastify';

/**
 * Answers with an error in the callable protocol's shape and HTTP status, whatever the route
 * (callables, file routes, webhooks, unknown paths): one error format on the wire.
 */
export function sendError(reply: FastifyReply, code: CallableErrorCode, message: string, details?: unknown) {
  return reply.code(callableErrorHttpStatus[code]).send(callableErrorBody(code, message, details));
}
