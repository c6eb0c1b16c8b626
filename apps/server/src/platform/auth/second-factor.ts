import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins';

/** Where the browser goes to enter the second factor after an email link (the sign-in page reads `step`). */
export const secondFactorPage = '/sign-in?step=second-factor';

/**
 * The second factor for every way of signing in, not just the password.
 *
 * Better Auth's twoFactor plugin asks for it after its own sign-in paths (email + password); an
 * email link or a phone code alone would otherwise walk past it, and the factor would protect the
 * password but not the mailbox or the SIM. This plugin runs the same hook of the same plugin
 * instance after `/phone-number/verify` (whose answer becomes `{ twoFactorRedirect: true }`, as
 * for a password) and after `/magic-link/verify`, whose answer is a redirect: it goes to the
 * sign-in page's second-factor step instead of the link's destination.
 */
export function secondFactorForEveryMethod(plugin: ReturnType<typeof twoFactor>): BetterAuthPlugin {
  const passwordHook = plugin.hooks.after[0]!;
  return {
    id: 'admit-second-factor-for-every-method',
    hooks: {
      after: [
        { matcher: (context) => context.path === '/phone-number/verify', handler: passwordHook.handler },
        { matcher: (context) => context.path === '/magic-link/verify', handler: passwordHook.handler },
        {
          matcher: (context) => context.path === '/magic-link/verify',
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { twoFactorRedirect?: boolean } | undefined;
            if (!returned || typeof returned !== 'object' || returned.twoFactorRedirect !== true) return;
            const destination = typeof ctx.query?.callbackURL === 'string' ? ctx.query.callbackURL : '/';
            const redirect = destination.startsWith('/') && !destination.startsWith('//') ? destination : '/';
            throw ctx.redirect(`${secondFactorPage}&redirect=${encodeURIComponent(redirect)}`);
          }),
        },
      ],
    },
  };
}
