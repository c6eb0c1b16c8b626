import type { FastifyRequest } from 'fastify';

/**
 * Whether the request came from this machine: its TCP peer is a loopback address and no proxy
 * forwarded it. The peer, not request.ip: X-Forwarded-For is the client's to write unless a proxy
 * rewrites it, and a proxy on this machine (HAProxy, a tunnel) would otherwise make its visitors
 * look local. What only the person at the keyboard may read (the dev outbox, /metrics without a
 * token) asks this.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !forwarded && isLoopback(request.raw.socket.remoteAddress);
}

function isLoopback(address: string | undefined) {
  return address !== undefined && (/^(::ffff:)?127\./.test(address) || address === '::1');
}
