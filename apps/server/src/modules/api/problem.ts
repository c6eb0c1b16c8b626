import type { Problem } from '@admit/shared/api-v1';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The titles of the problems the API answers with, by status. */
const titles: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/**
 * A refusal of an API request, answered as `application/problem+json` (RFC 9457). `type` names the
 * kind of problem under /api/docs#problems, so that a client can switch on it.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    detail: string,
    readonly extra: Pick<Problem, 'errors'> = {},
  ) {
    super(detail);
  }
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ApiProblem) {
  const body: Problem = {
    type: `/api/docs#problem-${problem.kind}`,
    title: titles[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.message,
    instance: request.id,
    ...problem.extra,
  };
  return reply.code(problem.status).type('application/problem+json').send(body);
}

export const notFound = (what: string) => new ApiProblem(404, 'not-found', `No such ${what}`);
