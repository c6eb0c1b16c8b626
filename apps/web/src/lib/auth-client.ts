import { magicLinkClient, phoneNumberClient, twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost:3000' : window.location.origin,
  basePath: '/api/auth',
  // The sign-in page reads `twoFactorRedirect` from the answer itself and asks for the code in place.
  plugins: [magicLinkClient(), phoneNumberClient(), twoFactorClient()],
});

export const useSession = authClient.useSession;
