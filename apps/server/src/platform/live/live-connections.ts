import type { WebSocket } from 'ws';
import type { SessionUser } from '../auth/auth';
import type { LiveContext, LiveQuery } from './live-query';
import type { TopicChanges } from './topic-keys';
import type { SentRows } from './shared-changes';

// The state the live hub keeps per socket and per subscription, and what it tells the browser.

/** Close codes the browser's client knows (apps/web/src/lib/live.ts, docs/contracts.md). */
export const liveCloseCodes = {
  /** The session ended: reconnect at once, as the person (or nobody) the browser now is. */
  sessionEnded: 4401,
  /** RFC 6455 "Try Again Later": the socket fell too far behind; reconnect after a pause. */
  tryAgainLater: 1013,
} as const;

export interface Subscription {
  id: string;
  socket: Connection;
  query: LiveQuery;
  params: unknown;
  /** What the subscriber has; never changed in place, as other subscribers may hold the same (shared-changes.ts). */
  rows: SentRows;
  topics: Set<string>;
  version: number;
  running: boolean;
  /** What changed since the running read started: read again once it is done. */
  pending: TopicChanges | null;
  closed: boolean;
}

export interface Connection {
  socket: WebSocket;
  ctx: LiveContext;
  /** The session the upgrade request carried; its end closes the socket. */
  sessionId: string | null;
  subscriptions: Map<string, Subscription>;
  /** Set once the hub let go of the socket (closed, or closing with its last frames unsent). */
  closed: boolean;
  /** The largest message sent on this socket, in bytes: a slow client may still be reading it. */
  largestMessageBytes: number;
}

/** Who opened a socket: the session found on the upgrade request and its person. */
export interface LiveSession {
  id: string;
  user: SessionUser;
}
