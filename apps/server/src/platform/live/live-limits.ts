/**
 * What one /live client may hold on this server process (decision 0029). The limits are per
 * process, like the memory they protect; config.ts reads them from LIVE_* variables.
 */
export interface LiveLimits {
  /**
   * Unsent bytes a socket may have, beyond the largest message it was sent, before the next message
   * closes it instead (code 1013).
   */
  maxBufferedBytes: number;
  maxSubscriptionsPerSocket: number;
  /** Open sockets from one client address (IPv6: one /64); more are refused with a 429. */
  maxSocketsPerAddress: number;
  /** Open sockets signed in to one account; more are refused with a 429. */
  maxSocketsPerAccount: number;
}

export type Admission = { release: () => void } | { refused: string };

/** Counts open sockets by client address and by account. */
export class SocketAdmission {
  private readonly byAddress = new Map<string, number>();
  private readonly byAccount = new Map<string, number>();

  constructor(private readonly limits: Pick<LiveLimits, 'maxSocketsPerAddress' | 'maxSocketsPerAccount'>) {}

  /** Takes a place for one socket, or says why there is none; `release` gives the place back (once). */
  admit(address: string, userId: string | null): Admission {
    const addressKey = addressKeyOf(address);
    if ((this.byAddress.get(addressKey) ?? 0) >= this.limits.maxSocketsPerAddress)
      return { refused: 'Too many live connections from this address' };
    if (userId !== null && (this.byAccount.get(userId) ?? 0) >= this.limits.maxSocketsPerAccount)
      return { refused: 'Too many live connections for this account' };
    increment(this.byAddress, addressKey, 1);
    if (userId !== null) increment(this.byAccount, userId, 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        increment(this.byAddress, addressKey, -1);
        if (userId !== null) increment(this.byAccount, userId, -1);
      },
    };
  }
}

function increment(counts: Map<string, number>, key: string, by: number) {
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

/**
 * The key a client address is counted under: an IPv4 address as it is (also when written as
 * IPv4-mapped IPv6), an IPv6 address by its /64, since one subscriber usually holds a whole /64.
 */
export function addressKeyOf(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  // A trailing dotted IPv4 part fills two groups.
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const [before, after] = [groups(head), groups(tail ?? '')];
  const all = tail === undefined ? before : [...before, ...Array<string>(8 - width(before) - width(after)).fill('0'), ...after];
  return `${all
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
