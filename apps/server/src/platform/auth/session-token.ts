/**
 * The request header with which an API client asks to be given its session as a bearer token
 * (decision 0028, docs/contracts.md). The browser never sends it: it has the session cookie,
 * which page scripts cannot read.
 */
export const wantTokenHeader = 'x-admit-want-token';

/** Better Auth's bearer plugin puts the signed session token into this header of every answer that sets the session cookie. */
const tokenHeader = 'set-auth-token';

/**
 * Deletes the session token from a JSON answer: its `token` (sign-in), its `session.token`
 * (get-session, email link), and each listed session's `token` (list-sessions).
 */
function dropToken(body: unknown): boolean {
  if (Array.isArray(body)) return body.map(dropToken).some(Boolean);
  if (typeof body !== 'object' || body === null) return false;
  const answer = body as { token?: unknown; session?: { token?: unknown } | null };
  const found = 'token' in answer || (typeof answer.session === 'object' && answer.session !== null && 'token' in answer.session);
  delete answer.token;
  if (typeof answer.session === 'object' && answer.session !== null) delete answer.session.token;
  return found;
}

/**
 * Better Auth's answer without the session token where page scripts would read it: in JSON
 * bodies (sign-in, sign-up, second factor, phone code, email link, change of password,
 * get-session, list-sessions) always, and in the `set-auth-token` header unless the client asked
 * for it. A client that asks gets the header's token: the signed one (`<token>.<signature>`), the
 * session cookie's value. The account page revokes a session by its id (revoke-session-by-id.ts).
 */
export async function withoutSessionToken(response: Response, tokenWanted: boolean): Promise<Response> {
  const headers = new Headers(response.headers);
  if (!tokenWanted) {
    headers.delete(tokenHeader);
    const exposed = (headers.get('access-control-expose-headers') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && name.toLowerCase() !== tokenHeader);
    if (exposed.length > 0) headers.set('access-control-expose-headers', exposed.join(', '));
    else headers.delete('access-control-expose-headers');
  }
  let body: BodyInit | null = response.body;
  if (response.body && headers.get('content-type')?.includes('application/json')) {
    const text = await response.text();
    body = text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (dropToken(parsed)) {
        body = JSON.stringify(parsed);
        headers.delete('content-length');
      }
    } catch {
      // Not JSON after all: passed on as it came.
    }
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
