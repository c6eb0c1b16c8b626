import { readFileSync } from 'node:fs';
import pg from 'pg';

export interface HotRowRate {
  clientsRequested: number;
  clients: number;
  seconds: number;
  updates: number;
  tps: number;
}

/**
 * The raw rate of one hot row: `clients` connections, each sending the conditional capacity update
 * (autocommit, prepared) as fast as it can. This is the ceiling any order path on one ticket type
 * shares. PostgreSQL refuses connections past max_connections, so more clients than it has free
 * slots are capped (and the cap is reported).
 */
export async function measureHotRow(
  databaseUrl: string,
  ticketTypeId: string,
  clientsRequested: number,
  seconds: number,
): Promise<HotRowRate> {
  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  const { rows } = await probe.query<{ free: number }>(
    `select current_setting('max_connections')::int - count(*)::int as free from pg_stat_activity where backend_type = 'client backend'`,
  );
  await probe.end();
  // Leave a few slots for the server's pool growing and for anything else using this PostgreSQL.
  const clients = Math.max(1, Math.min(clientsRequested, rows[0]!.free - 8));
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const query = {
    name: 'hot-row',
    text: 'UPDATE ticket_type SET sold = sold + 1 WHERE id = $1 AND sold + held + 1 <= capacity',
    values: [ticketTypeId],
  };
  let updates = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  try {
    await Promise.all(
      connections.map(async (client) => {
        while (performance.now() < until) {
          const result = await client.query(query);
          if (result.rowCount !== 1) throw new Error('the hot row ran out of capacity: raise it');
          updates++;
        }
      }),
    );
  } finally {
    await Promise.all(connections.map((client) => client.end()));
  }
  const elapsed = (performance.now() - started) / 1000;
  return { clientsRequested, clients, seconds: elapsed, updates, tps: Math.round(updates / elapsed) };
}

/**
 * The kernel's count of connections dropped because a listening socket's accept queue was full
 * (TcpExt ListenOverflows, machine-wide): a rush of new connections beyond the server's listen
 * backlog shows up here, and such buyers end with a reset connection instead of an answer.
 */
export function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('TcpExt:'));
  const names = lines[header]?.split(/\s+/) ?? [];
  const values = lines[header + 1]?.split(/\s+/) ?? [];
  return Number(values[names.indexOf('ListenOverflows')] ?? 0);
}
