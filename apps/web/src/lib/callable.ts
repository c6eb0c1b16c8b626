import type { CallableContract } from '@admit/shared/callable';
import {
  callableErrorCodeFromHttpStatus,
  callableErrorCodeOf,
  errorOfBody,
  type CallableErrorCode,
} from '@admit/shared/callable-errors';
import type { ContractRef } from '@admit/shared/contract-ref';
import type { z } from 'zod';

/** A failed call, as the browser sees it: the protocol's code, a message, and the server's details. */
export class CallError extends Error {
  constructor(
    readonly code: CallableErrorCode,
    message: string,
    readonly details?: unknown,
    /** The HTTP status, or 0 when no response arrived. */
    readonly httpStatus = 0,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/**
 * The error an answer carries: its body's status name mapped to a code as any client of the
 * protocol maps it (an unknown name is `internal`), or, with no readable body, the code of its
 * HTTP status.
 */
export function callErrorOf(body: unknown, httpStatus: number, statusText = ''): CallError {
  const error = errorOfBody(body);
  if (error) return new CallError(callableErrorCodeOf(error.status), error.message, error.details, httpStatus);
  const code = callableErrorCodeFromHttpStatus(httpStatus);
  return new CallError(code, statusText || code, undefined, httpStatus);
}

export const defaultCallTimeoutMs = 70_000;

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface CallableClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
}

/**
 * Calls server functions by their shared contract, or a reference to it by name
 * (`@admit/shared/contract-ref`), over `POST /fn/<name>` (the protocol is in docs/contracts.md).
 */
export function createCallableClient({
  baseUrl = '',
  fetch: fetchImpl = globalThis.fetch.bind(globalThis),
}: CallableClientOptions = {}) {
  return async function call<C extends CallableContract>(
    contract: C | ContractRef<C>,
    data: z.input<C['input']>,
    options: CallOptions = {},
  ): Promise<z.output<C['output']>> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs ?? defaultCallTimeoutMs);
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) controller.abort();

    let response: Response;
    let body: unknown;
    try {
      response = await fetchImpl(`${baseUrl}/fn/${contract.name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify({ data }),
        credentials: 'include',
        signal: controller.signal,
      });
      // The deadline covers the whole answer: a body that stalls after the headers times out too.
      body = await response.json().catch((error: unknown) => {
        if (controller.signal.aborted) throw error;
        return undefined;
      });
    } catch (error) {
      if (timedOut) throw new CallError('deadline-exceeded', 'The server took too long to answer');
      if (controller.signal.aborted) throw new CallError('cancelled', 'The call was cancelled');
      throw new CallError('internal', 'The server could not be reached', { cause: String(error) }, 0);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }

    if (response.ok) {
      if (body && typeof body === 'object' && 'result' in body) return (body as { result: z.output<C['output']> }).result;
      throw new CallError('internal', 'The server sent an answer that could not be read', undefined, response.status);
    }
    throw callErrorOf(body, response.status, response.statusText);
  };
}

export const callFunction = createCallableClient();
