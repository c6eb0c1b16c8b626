import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { fromThisMachine } from '../http/this-machine';

/**
 * Who may read GET /metrics (decision 0033). The figures name every callable and queue and show
 * how busy the server is: they are never public.
 *
 * - `token`: METRICS_TOKEN is set; only requests with `Authorization: Bearer <METRICS_TOKEN>`.
 * - `this-machine`: no token outside production; only connections from this machine that no proxy
 *   forwarded (a proxy on the same machine would otherwise make its visitors look local).
 * - `off`: no token in production; the route does not exist.
 */
export type MetricsAccess = 'token' | 'this-machine' | 'off';

export function metricsAccessOf(config: Config): MetricsAccess {
  if (config.METRICS_TOKEN) return 'token';
  return config.NODE_ENV === 'production' ? 'off' : 'this-machine';
}

export type MetricsRefusal = { code: 'unauthenticated' | 'permission-denied'; message: string } | null;

/** Why this request may not read /metrics, or null when it may. */
export function metricsRefusalOf(config: Config, request: FastifyRequest): MetricsRefusal {
  if (config.METRICS_TOKEN) {
    const given = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given !== undefined && sameSecret(given, config.METRICS_TOKEN)) return null;
    return { code: 'unauthenticated', message: 'Reading /metrics needs Authorization: Bearer <METRICS_TOKEN>' };
  }
  if (fromThisMachine(request)) return null;
  return { code: 'permission-denied', message: 'Without METRICS_TOKEN, /metrics is served only to this machine' };
}

/** Compared in constant time: digests of equal length, whatever was sent. */
function sameSecret(given: string, secret: string) {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
