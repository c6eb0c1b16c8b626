// Part 3 of bench/flash-sale: Admit as deployed on several machines (deploy/topology.ts), here on
// one: HAProxy, PgBouncer in transaction mode, web processes with JOB_WORKERS=off and separate
// workers, on a scratch database of its own (so that no email left over from part 1 queues ahead
// of this part's). Checked first (deploy/checks.ts); then the sale with kills (kill-sale.ts), while
// the job queue holds nothing else; then the killed processes started again, as a supervisor
// would; then the throughput on one hot free ticket type with 1, 2 and 4 web processes; then the
// emails of every order of the part, and everything stopped.
import pg from 'pg';
import { checkTopology } from '../../deploy/checks';
import { startTopology, stoppedCleanly, type Topology } from '../../deploy/topology';
import type { cleanupOnExit } from '../support/cleanup';
import { createOrganization, createPeople, inTurn } from '../support/people';
import { createScratchDatabase } from '../support/scratch-database';
import { benchAuthSecret, benchLimits } from '../support/server';
import { asBrowser } from '../support/sign-in';
import { round } from '../support/stats';
import { killSale } from './kill-sale';
import {
  buyersOpenTheirPages,
  emailsOfThePart,
  hotOrders,
  invariantsAfter,
  newSale,
  warmUp,
  type Run,
  type Target,
} from './runs';

const concurrency = 200;

export interface TopologyRunOptions {
  adminUrl: string;
  root: string;
  /** The web processes of each throughput run, e.g. [1, 2, 4]; none: no throughput runs. */
  webProcesses: number[];
  workers: number;
  seconds: number;
  kill?: { seconds: number; seats: number; jobExpireSeconds: number };
  emailWaitSeconds: number;
  partEmailWaitSeconds: number;
  cleanup: ReturnType<typeof cleanupOnExit>;
}

/**
 * Buyers for the part: about one per order of its runs (at up to 250 orders/s), and three per place
 * of the kill sale; at most 8,000 (each opens the page first, 300 a second), so a buyer may order
 * twice in a long run.
 */
function buyersNeeded(options: TopologyRunOptions) {
  const orders = options.webProcesses.length * (options.seconds + 3) * 250 + (options.kill ? 3 * options.kill.seats : 0);
  return Math.max(2_000, Math.min(8_000, orders));
}

export async function topologyRuns(options: TopologyRunOptions) {
  const database = await createScratchDatabase(options.adminUrl);
  options.cleanup.add('drop the topology database', () => database.drop());
  const slots = Math.max(1, ...options.webProcesses, options.kill ? 2 : 1);
  const topology = await startTopology({
    databaseUrl: database.url,
    web: options.kill ? 2 : (options.webProcesses[0] ?? 1),
    webSlots: slots,
    workers: options.workers,
    // The benchmark's cookies are signed with the secret every benchmark's server has.
    authSecret: benchAuthSecret,
    // The load generator stands in for many clients: HAProxy keeps its X-Forwarded-For.
    trustForwardedForFrom: '127.0.0.1',
    env: benchLimits,
    root: options.root,
    log: (line) => console.log(`topology: ${line}`),
  });
  let stopped: Awaited<ReturnType<typeof stopTopology>> | undefined;
  options.cleanup.add('stop the topology', async () => (stopped ??= await stopTopology(topology, [])));
  const pool = new pg.Pool({ connectionString: database.url, max: 3 });
  options.cleanup.add('close the topology pool', () => pool.end());

  const checks = await checkTopology(topology);
  for (const check of checks) console.log(`topology: ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  if (checks.some((check) => !check.ok)) throw new Error('the topology failed its checks');
  const target: Target = {
    url: topology.url,
    signIn: asBrowser({ origin: topology.publicUrl, forwardedFor: true }),
    processes: () => topology.pids(),
  };
  const { organizer, organizationId } = await createOrganization(topology.url, database.url, 'Bench Night Owls');
  const buyers = await createPeople(database.url, buyersNeeded(options), 'buyer', { mail: 'deliverable' });
  const run: Run = {
    databaseUrl: database.url,
    pool,
    organizer,
    organizationId,
    buyers,
    nextBuyer: inTurn(buyers),
    emailWaitSeconds: options.emailWaitSeconds,
    saleEvents: [],
  };
  const pagesOpened = await buyersOpenTheirPages(target, buyers);

  const killed: string[] = [];
  let kill;
  let restarted: string[] = [];
  if (options.kill) {
    kill = await killSale(run, topology, target, { ...options.kill, connections: concurrency });
    killed.push(kill.webKilled.slot, kill.workerKilled.name);
    restarted = await topology.restartEnded();
    console.log(`topology: started again (as a supervisor would): ${restarted.join(', ')}`);
  }

  const scaling = [];
  for (const count of options.webProcesses) {
    await topology.scaleWeb(count);
    const sale = await newSale(run, target.url, `Hot ticket type, ${count} web`, 1_000_000);
    await warmUp(run, target, sale);
    const label = `orders.create (free) through HAProxy, ${count} web process${count === 1 ? '' : 'es'}, ${options.workers} workers`;
    const measured = await hotOrders(run, target, { sale, connections: concurrency, seconds: options.seconds, label });
    const cpuMsPerOrder = Object.fromEntries(
      Object.entries(measured.cpu)
        .filter(([kind]) => kind !== 'machineBusyCores')
        .map(([kind, cores]) => [
          kind.replace(/Cores$/, ''),
          round(((cores * measured.seconds) / Math.max(1, measured.completed)) * 1000),
        ]),
    );
    scaling.push({
      webProcesses: count,
      workers: options.workers,
      ...measured,
      cpuMsPerOrder,
      invariants: await invariantsAfter(run, label),
    });
  }
  const emails = scaling.length > 0 ? await emailsOfThePart(run, 'the topology part', options.partEmailWaitSeconds) : undefined;
  const invariants = await invariantsAfter(run, 'the topology part');
  stopped = await stopTopology(topology, killed);
  return { database: database.name, checks, pagesOpened, kill, restarted, scaling, emails, invariants, ...stopped };
}

async function stopTopology(topology: Topology, killed: string[]) {
  const exits = await topology.stop();
  // A process killed on purpose, then started again, shows twice: killed, then stopped.
  const clean = exits.every((exit) => stoppedCleanly(exit, killed));
  console.log(
    `topology stopped ${clean ? 'cleanly' : 'NOT cleanly'}: ${exits.map((exit) => `${exit.name} ${exit.code ?? exit.signal} (${exit.ms} ms)`).join(', ')}`,
  );
  return { stop: { exits, clean } };
}
