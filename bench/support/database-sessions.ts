import pg from 'pg';
import { round } from './stats';

/**
 * Samples what the server's PostgreSQL sessions are doing (pg_stat_activity) every few ms until
 * stopped: the share of samples per state and wait event says where a request's time goes in the
 * database: waiting for a row lock (Lock), for the WAL flush of a commit (IO:WALSync / LWLock:WALWrite),
 * for the Node server's next statement inside a transaction (idle in transaction · Client:ClientRead),
 * or running (active, no wait).
 */
export function sampleSessions(databaseUrl: string, everyMs = 20) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ what: string; n: number }>(
        `select state || coalesce(' · ' || wait_event_type || ':' || wait_event, '') as what, count(*)::int as n
         from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
           and query not like 'LISTEN%' and state <> 'idle'
         group by 1`,
      );
      samples++;
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.n);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await client.end();
  })();
  return {
    /** Average number of sessions in each state (out of the pool's connections), busiest first. */
    async stop() {
      stopped = true;
      await loop;
      return Object.fromEntries(
        [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([what, total]) => [what, round(total / Math.max(1, samples))]),
      );
    },
  };
}
