import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { authClient } from './auth-client';
import { forgetOfflineData, rememberedSession, rememberSession } from './offline-person';

// Who is signed in, for any screen. Better Auth's client (lib/auth-client.ts, with its plugins) is
// not in the first load of a page: it loads once a screen first asks who is signed in, and its
// session store feeds this one (decision 0050). Until then, and while a page the server drew is
// taken over, the session is not yet known, on both sides alike.

type AuthSession = NonNullable<ReturnType<typeof authClient.useSession>['data']>;

/**
 * A signed-in person as the screens see them. `session` (this device's session row) is null with no
 * network: only the person was kept, so a screen that needs the row must say it needs the network.
 */
export interface SignedIn {
  user: AuthSession['user'];
  session: AuthSession['session'] | null;
}

interface SessionState {
  data: AuthSession | null;
  error: unknown;
  isPending: boolean;
}

const notYetKnown: SessionState = { data: null, error: null, isPending: true };
let state = notYetKnown;
const listeners = new Set<() => void>();
let loading: Promise<unknown> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  loading ??= import('./auth-client').then(({ authClient }) =>
    // Better Auth's own session store (what its `useSession` reads), fetched once it is listened to.
    authClient.$store.atoms.session!.subscribe(({ data, error, isPending }) => {
      state = { data, error, isPending };
      for (const notify of listeners) notify();
    }),
  );
  return () => listeners.delete(listener);
}

/**
 * The signed-in person. With no network the session cannot be asked for: the person this device
 * last saw signed in is used, so that the screens they saw still open from the offline cache.
 * Once the server answers that nobody is signed in, that person and their cache are forgotten.
 */
export function useSession(): { data: SignedIn | null; error: unknown; isPending: boolean } {
  const session = useSyncExternalStore(
    subscribe,
    () => state,
    () => notYetKnown,
  );
  const queryClient = useQueryClient();
  const { data, error, isPending } = session;
  useEffect(() => {
    if (isPending) return;
    if (data) rememberSession(data);
    else if (!error && rememberedSession()) void forgetOfflineData(queryClient);
  }, [data, error, isPending, queryClient]);
  if (!isPending && !data && error) {
    const remembered = rememberedSession();
    // The whole user row was kept as JSON: its fields as last seen, its dates as strings.
    if (remembered) return { ...session, data: { user: remembered.user as AuthSession['user'], session: null }, error: null };
  }
  return session;
}
