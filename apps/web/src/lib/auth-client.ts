import { magicLinkClient, phoneNumberClient, twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { clearOfflineData, rememberedSession, rememberSession } from './offline-cache';

export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? 'http://localhost:3000' : window.location.origin,
  basePath: '/api/auth',
  // The sign-in page reads `twoFactorRedirect` from the answer itself and asks for the code in place.
  plugins: [magicLinkClient(), phoneNumberClient(), twoFactorClient()],
});

type AuthSession = NonNullable<ReturnType<typeof authClient.useSession>['data']>;

/**
 * A signed-in person as the screens see them. `session` (this device's session row) is null with no
 * network: only the person was kept, so a screen that needs the row must say it needs the network.
 */
export interface SignedIn {
  user: AuthSession['user'];
  session: AuthSession['session'] | null;
}

/**
 * The signed-in person. With no network the session cannot be asked for: the person this device
 * last saw signed in is used, so that the screens they saw still open from the offline cache.
 * Once the server answers that nobody is signed in, that person and their cache are forgotten.
 */
export function useSession(): Omit<ReturnType<typeof authClient.useSession>, 'data'> & { data: SignedIn | null } {
  const session = authClient.useSession();
  const queryClient = useQueryClient();
  const { data, error, isPending } = session;
  useEffect(() => {
    if (isPending) return;
    if (data) rememberSession(data);
    else if (!error && rememberedSession()) void clearOfflineData(queryClient);
  }, [data, error, isPending, queryClient]);
  if (!isPending && !data && error) {
    const remembered = rememberedSession();
    // The whole user row was kept as JSON: its fields as last seen, its dates as strings.
    if (remembered) return { ...session, data: { user: remembered.user as AuthSession['user'], session: null }, error: null };
  }
  return session;
}
