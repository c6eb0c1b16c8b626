import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, sensitiveSessionMiddleware } from 'better-auth/api';
import { deleteSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';

/**
 * `POST /api/auth/revoke-session-by-id {sessionId}`: ends one of the caller's own sessions, named by
 * the id list-sessions gives. Better Auth's own revoke-session takes the session's token, which
 * would have to be shown to page scripts for the account page to sign another device out; a token
 * in a page is a session anyone who runs script there can take. An id of someone else's session,
 * or of none, is not-found: ids reveal nothing.
 */
export function revokeSessionById(): BetterAuthPlugin {
  return {
    id: 'admit-revoke-session-by-id',
    endpoints: {
      revokeSessionById: createAuthEndpoint(
        '/revoke-session-by-id',
        {
          method: 'POST',
          body: z.object({ sessionId: z.string().min(1).max(64) }),
          use: [sensitiveSessionMiddleware],
          requireHeaders: true,
        },
        async (ctx) => {
          const { session } = ctx.context;
          const mine = await ctx.context.internalAdapter.listSessions(session.user.id);
          const found = mine.find((one) => one.id === ctx.body.sessionId);
          if (!found) throw APIError.from('NOT_FOUND', { code: 'SESSION_NOT_FOUND', message: 'No such session of yours' });
          await ctx.context.internalAdapter.deleteSession(found.token);
          if (found.token === session.session.token) deleteSessionCookie(ctx);
          return ctx.json({ status: true });
        },
      ),
    },
  };
}
