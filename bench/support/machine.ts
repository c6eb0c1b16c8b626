import os from 'node:os';
import pg from 'pg';
import { round } from './stats';

/** The load averages over 1, 5 and 15 minutes: how busy the machine was with other work around a run. */
export function loadAverage(): number[] {
  return os.loadavg().map((value) => round(value));
}

/** The settings of a PostgreSQL server that bear on how fast it commits and how many clients it takes. */
const postgresSettingNames = [
  'max_connections',
  'shared_buffers',
  'synchronous_commit',
  'fsync',
  'wal_sync_method',
  'commit_delay',
];

async function postgresServer(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('select version()');
    const settings = await client.query<{ name: string; setting: string }>(
      'select name, setting from pg_settings where name = any($1)',
      [postgresSettingNames],
    );
    return {
      postgres: rows[0]!.version,
      postgresSettings: Object.fromEntries(settings.rows.map((row) => [row.name, row.setting])),
    };
  } finally {
    await client.end();
  }
}

/**
 * What a run ran on, for its result file: the cores and memory, Node, the PostgreSQL server when
 * there is one, and the load averages at the start and the end of the run.
 */
export async function machine(options: {
  loadAverageAtStart: number[];
  /** What shares these cores during the run, for whoever compares two results. */
  note: string;
  databaseUrl?: string;
}) {
  return {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryBytes: os.totalmem(),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    ...(options.databaseUrl ? await postgresServer(options.databaseUrl) : {}),
    loadAverageAtStart: options.loadAverageAtStart,
    loadAverageAtEnd: loadAverage(),
    note: options.note,
  };
}
