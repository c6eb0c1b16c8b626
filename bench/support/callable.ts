import { signedToken } from './sign-in';

/**
 * Who calls: a raw session token (sent signed as `Authorization: Bearer`, as API clients and the
 * benchmarks' people do) or a browser's cookies.
 */
export type Caller = { token: string } | { cookie: string };

function headersOf(caller: Caller): Record<string, string> {
  return 'token' in caller ? { authorization: `Bearer ${signedToken(caller.token)}` } : { cookie: caller.cookie };
}

/** Calls a server function over HTTP (`POST /fn/<name>` with `{ data }`) and returns its answer as it came, timed. */
export async function post(baseUrl: string, caller: Caller, name: string, data: unknown) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/fn/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headersOf(caller) },
    body: JSON.stringify({ data }),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  return { status: response.status, body, ms: performance.now() - started };
}

/** Calls a server function and returns its result; throws on an error answer (set-up, where any error ends the run). */
export async function call<T>(baseUrl: string, caller: Caller, name: string, data: unknown): Promise<T> {
  const { status, body } = await post(baseUrl, caller, name, data);
  if (status !== 200) throw new Error(`${name} failed: ${status} ${JSON.stringify(body.error)}`);
  return body.result as T;
}
