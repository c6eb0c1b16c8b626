// `npm run topology:start -- [--web 2] [--workers 1] [--port 8080] [--database-url URL]`: Admit's
// several-machine topology on this machine (deploy/topology.ts, deploy/README.md) until Ctrl-C,
// then everything stopped cleanly. `npm run topology:check`: the same, checked (deploy/checks.ts),
// then stopped; exits 1 when a check fails or a process did not stop cleanly.
//
// Without --database-url, a scratch database is made on --admin-url (default
// postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end.
import { parseArgs } from 'node:util';
import { createScratchDatabase, type ScratchDatabase } from '../bench/support/scratch-database';
import { checkTopology } from './checks';
import { startTopology, stoppedCleanly, type Topology } from './topology';

const { values } = parseArgs({
  options: {
    web: { type: 'string', default: '2' },
    workers: { type: 'string', default: '1' },
    port: { type: 'string' },
    'database-url': { type: 'string' },
    'admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    check: { type: 'boolean', default: false },
  },
});

const log = (line: string) => console.log(`topology: ${line}`);

async function main() {
  let scratch: ScratchDatabase | undefined;
  const databaseUrl = values['database-url'] ?? (scratch = await createScratchDatabase(values['admin-url'])).url;
  if (scratch) log(`scratch database ${scratch.name}`);
  let topology: Topology | undefined;
  let stopping: Promise<boolean> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      let clean = true;
      if (topology) {
        log('stopping: HAProxy, the web processes, the workers, PgBouncer');
        for (const exit of await topology.stop()) {
          clean &&= stoppedCleanly(exit);
          log(`  ${exit.name}: ${exit.code !== null ? `exit ${exit.code}` : exit.signal} after ${exit.ms} ms`);
        }
      }
      if (scratch) await scratch.drop();
      return clean;
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stop().then((clean) => process.exit(clean ? 0 : 1)));

  try {
    topology = await startTopology({
      databaseUrl,
      web: Number(values.web),
      workers: Number(values.workers),
      port: values.port ? Number(values.port) : undefined,
      log,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  log(`Admit is running at ${topology.url} (PUBLIC_URL ${topology.publicUrl}); config files in ${topology.configDir}`);

  if (!values.check) {
    log('Ctrl-C stops everything');
    return;
  }
  const results = await checkTopology(topology);
  for (const result of results) log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${result.detail}`);
  const clean = await stop();
  if (!clean) log('FAIL: a process did not stop cleanly');
  process.exit(results.every((result) => result.ok) && clean ? 0 : 1);
}

await main();
