import { magicLinkClient, phoneNumberClient, twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

// Better Auth's client, for the screens that sign in, out and change an account: it loads with
// them. Who is signed in is lib/session.ts, which loads this when a screen first asks.

export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost:3000' : window.location.origin,
  basePath: '/api/auth',
  // The sign-in page reads `twoFactorRedirect` from the answer itself and asks for the code in place.
  plugins: [magicLinkClient(), phoneNumberClient(), twoFactorClient()],
});
