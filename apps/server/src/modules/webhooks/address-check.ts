import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Webhook addresses are given by organizations' admins, and Admit's servers call them: without a
// check, an admin could make Admit call what only Admit's own network reaches (a database, a cloud
// metadata service). In production an address on a private, loopback or link-local network is
// refused when the endpoint is made and again when each delivery connects (what a name resolves
// to can change in between). WEBHOOKS_ALLOW_PRIVATE allows them for development and tests.

const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is on a private, loopback, link-local or otherwise not public network. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return notPublic.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return notPublic.check(mapped[1]!, 'ipv4');
  return notPublic.check(address, 'ipv6');
}

export type AddressProblem = 'private-address' | 'unresolvable';

/** What is wrong with calling this URL's host, or null: every address it resolves to must be public. */
export async function addressProblemOf(url: string): Promise<AddressProblem | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? 'private-address' : null;
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return 'unresolvable';
  }
  if (addresses.length === 0) return 'unresolvable';
  return addresses.some((found) => isPrivateAddress(found.address)) ? 'private-address' : null;
}
