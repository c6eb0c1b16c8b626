import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database';
import { addToSet, removeFromSet } from '../set-index';
import { randomUUID } from 'node:crypto';
import { headersOf, type Auth, type SessionUser } from './auth';

/** A request's session as the server uses it: the person, and the session's id (to end its sockets). */
export interface RequestSession {
  id: string;
  user: SessionUser;
}

/** The channel the database's triggers announce ended sessions and changed people on (see the 0009 and 0012 migrations). */
const accessChannel = 'admit_access';

/**
 * Looks sessions up through Better Auth, and keeps what it found for a short while, so that a
 * signed-in call does not pay a full lookup every time (it cost 2.2 ms of server CPU per call, and
 * capped any signed-in call near 350 a second). Revocation stays immediate: a session row that is
 * deleted (sign-out, revoke, password reset, account deletion) and a person whose row changes
 * (name, address) are announced by database triggers on every server instance, and their entries
 * are dropped before the next request reads them. On PostgreSQL an announcement arrives a moment
 * after the commit, so a sign-in route that changed something waits for it (`caughtUp`) before it
 * answers: the caller's next request, on this instance, never sees the old session. `maxAgeMs`
 * bounds what a missed announcement could cost (a connection to the database lost for a moment):
 * the session is read again then.
 */
export function createSessionCache(auth: Auth, options: { maxAgeMs?: number; maxEntries?: number } = {}) {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const byCredential = new Map<string, { session: RequestSession | null; until: number }>();
  const credentialsOfSession = new Map<string, Set<string>>();
  const credentialsOfUser = new Map<string, Set<string>>();
  const inFlight = new Map<string, Promise<RequestSession | null>>();
  /** Bumped on every announcement: a lookup that started before one is not kept. */
  let generation = 0;
  /** Marks this instance sent itself, waiting to come back on the channel (see `caughtUp`). */
  const marks = new Map<string, () => void>();
  let database: Database | undefined;

  const forget = (credential: string) => {
    const entry = byCredential.get(credential);
    byCredential.delete(credential);
    if (!entry?.session) return;
    removeFromSet(credentialsOfSession, entry.session.id, credential);
    removeFromSet(credentialsOfUser, entry.session.user.id, credential);
  };
  const forgetAll = (index: Map<string, Set<string>>, key: string) => {
    for (const credential of [...(index.get(key) ?? [])]) forget(credential);
    index.delete(key);
  };
  const keep = (credential: string, session: RequestSession | null) => {
    if (byCredential.size >= maxEntries) byCredential.delete(byCredential.keys().next().value!);
    byCredential.set(credential, { session, until: Date.now() + maxAgeMs });
    if (!session) return;
    addToSet(credentialsOfSession, session.id, credential);
    addToSet(credentialsOfUser, session.user.id, credential);
  };

  /** What identifies the caller: the session cookie, or the bearer token (null: nobody signed in). */
  function credentialOf(request: FastifyRequest): string | null {
    const bearer = request.headers.authorization;
    if (typeof bearer === 'string' && /^bearer /i.test(bearer)) return `bearer ${bearer.slice(7).trim()}`;
    const cookie = request.headers.cookie;
    const token = cookie ? /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(cookie)?.[1] : undefined;
    return token ? `cookie ${token}` : null;
  }

  async function lookUp(request: FastifyRequest): Promise<RequestSession | null> {
    const found = await auth.api.getSession({ headers: headersOf(request) });
    if (!found) return null;
    const { id, name, email, emailVerified } = found.user;
    return { id: found.session.id, user: { id, name, email, emailVerified } };
  }

  return {
    /** Listens for ended sessions and changed people, on every instance's announcements. */
    async start(on: Database) {
      database = on;
      return on.listen(accessChannel, (payload) => {
        const separator = payload.indexOf(':');
        const kind = payload.slice(0, separator);
        const id = payload.slice(separator + 1);
        if (kind === 'mark') return marks.get(id)?.();
        generation += 1;
        if (kind === 'session') forgetAll(credentialsOfSession, id);
        // A changed person (name, address, verification) or a changed role: read them again.
        if (kind === 'user' || kind === 'profile') forgetAll(credentialsOfUser, id);
      });
    },

    /**
     * Resolves once every announcement committed before now has been applied here: the database
     * delivers notifications in commit order, so when a mark sent now comes back, they have. If it
     * does not come back within `timeoutMs`, everything kept is dropped instead.
     */
    async caughtUp(timeoutMs = 2_000): Promise<void> {
      if (!database) return;
      const mark = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const back = new Promise<boolean>((resolve) => {
        marks.set(mark, () => resolve(true));
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        await database.notify(accessChannel, `mark:${mark}`);
        if (!(await back)) {
          generation += 1;
          for (const credential of [...byCredential.keys()]) forget(credential);
        }
      } finally {
        clearTimeout(timer);
        marks.delete(mark);
      }
    },

    /** The session of the request, or null when nobody is signed in. */
    async sessionOf(request: FastifyRequest): Promise<RequestSession | null> {
      const credential = credentialOf(request);
      if (!credential) return null;
      const cached = byCredential.get(credential);
      if (cached && cached.until > Date.now()) return cached.session;
      if (cached) forget(credential);
      const pending = inFlight.get(credential);
      if (pending) return pending;
      const started = generation;
      const lookup = lookUp(request).finally(() => inFlight.delete(credential));
      inFlight.set(credential, lookup);
      const session = await lookup;
      // An announcement came while it was read: what was read may be out of date already.
      if (generation === started) keep(credential, session);
      return session;
    },

    async userOf(request: FastifyRequest): Promise<SessionUser | null> {
      return (await this.sessionOf(request))?.user ?? null;
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
