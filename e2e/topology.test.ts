import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call, post } from '../bench/support/callable';
import { createOrganization, createPeople } from '../bench/support/people';
import { createSaleEvent, orderInput } from '../bench/support/sale-event';
import { createScratchDatabase, type ScratchDatabase } from '../bench/support/scratch-database';
import { benchAuthSecret } from '../bench/support/server';
import { checkTopology } from '../deploy/checks';
import { requireProgram } from '../deploy/processes';
import { repositoryRoot, startTopology, stoppedCleanly, type Topology } from '../deploy/topology';
import { launchChromium, newPage } from './support/browser';

// The several-server topology of deploy/README.md, as `npm run topology:check` starts it: HAProxy
// and PgBouncer from Debian's packages, two web processes with no jobs of their own, a collector
// for the analytics beacons and a worker process, on PostgreSQL. It needs the PostgreSQL server of
// the database suite (TEST_DATABASE_URL, whose server gets a scratch database of its own here) and
// both programs; .ci/run installs them.

const adminUrl = (() => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
})();
const programs = (['haproxy', 'pgbouncer'] as const).every((program) => {
  try {
    return Boolean(requireProgram(program));
  } catch {
    return false;
  }
});

describe.skipIf(!adminUrl || !programs)('several web processes and a worker behind HAProxy and PgBouncer', () => {
  let database: ScratchDatabase;
  let topology: Topology | undefined;
  /** A copy of the built app the web processes serve (WEB_DIST_DIR), which a test builds a next release into. */
  const site = mkdtempSync(path.join(tmpdir(), 'admit-topology-site-'));
  const dist = path.join(site, 'dist');

  beforeAll(async () => {
    cpSync(path.join(repositoryRoot, 'apps/web/dist'), dist, { recursive: true });
    cpSync(path.join(repositoryRoot, 'apps/web/dist-server'), path.join(site, 'dist-server'), { recursive: true });
    database = await createScratchDatabase(adminUrl!);
    topology = await startTopology({
      databaseUrl: database.url,
      web: 2,
      workers: 1,
      collectors: 1,
      // The people's bearer tokens are signed with the secret every benchmark's server has (bench/support/sign-in.ts).
      authSecret: benchAuthSecret,
      // Every buyer of the rolling restart orders from this machine's one address: on a slow
      // machine the restart outlasts the 300 orders an address may try (ORDER_ATTEMPTS_PER_ADDRESS).
      env: { WEB_DIST_DIR: dist, ORDER_ATTEMPTS_PER_ADDRESS: '10000' },
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await database?.drop();
    rmSync(site, { recursive: true, force: true });
  }, 60_000);

  it('puts both web processes in rotation and answers callables and /live through HAProxy', async () => {
    const results = await checkTopology(topology!);
    expect(results.filter((result) => !result.ok)).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(4);
  });

  it("takes a buyer's free order through HAProxy, and the worker process sends its confirmation email", async () => {
    const url = topology!.url;
    const { organizer, organizationId } = await createOrganization(url, database.url, 'Topology Club');
    const sale = await createSaleEvent(url, organizer, organizationId, { title: 'Topology night', capacity: 5, price: 0 });
    const [buyer] = await createPeople(database.url, 1, 'topology-buyer', { mail: 'deliverable' });
    const { orderId } = await call<{ orderId: string }>(url, buyer!, 'orders.create', orderInput(sale));
    expect(orderId).toEqual(expect.any(String));

    // The web processes run no jobs (JOB_WORKERS=off): only the worker can have sent it.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await expect
        .poll(
          async () =>
            (await client.query(`select subject from outbox_message where "to" = $1`, [buyer!.email])).rows.map(
              (row: { subject: string }) => row.subject,
            ),
          { timeout: 30_000, interval: 250 },
        )
        .toEqual([expect.stringContaining('Topology night')]);
    } finally {
      await client.end();
    }
  });

  it('sends analytics beacons to the collector, which writes them, and nothing else to it', async () => {
    const url = topology!.url;
    const [organizer] = await createPeople(database.url, 1, 'beacon-organizer');
    const { organizationId } = await call<{ organizationId: string }>(url, organizer!, 'orgs.create', { name: 'Beacon Club' });
    const sale = await createSaleEvent(url, organizer!, organizationId, { title: 'Beacon night', capacity: 5, price: 0 });
    for (let n = 0; n < 5; n++) {
      const response = await fetch(`${url}/a`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify({ eventId: sale.eventId, step: 'view' }),
      });
      expect(response.status).toBe(204);
    }
    // Each process's own figures (read straight from it, on this machine): the collector took all five.
    const writtenBy = async (port: number) => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return Number(/^admit_analytics_beacons_written_total (\d+)$/m.exec(text)?.[1]);
    };
    const [collector] = topology!.collectors;
    await expect.poll(() => writtenBy(collector!.port), { timeout: 10_000 }).toBe(5);
    for (const web of topology!.web) expect(await writtenBy(web.port)).toBe(0);
    const requests = await (await fetch(`http://127.0.0.1:${collector!.port}/metrics`)).text();
    // The sale's callables went to the web processes: the collector answered no callable.
    expect(requests).not.toMatch(/admit_http_requests_total\{[^}]*route="\/fn\/:name"/);
  });

  it('restarts the web processes one after another onto a new build during a sale: no order lost, an open page still works', async () => {
    const url = topology!.url;
    const [organizer] = await createPeople(database.url, 1, 'rolling-organizer');
    const { organizationId } = await call<{ organizationId: string }>(url, organizer!, 'orgs.create', { name: 'Rolling Club' });
    const sale = await createSaleEvent(url, organizer!, organizationId, { title: 'Rolling night', capacity: 500, price: 0 });
    const buyers = await createPeople(database.url, 400, 'rolling-buyer');
    const browser = await launchChromium();
    try {
      // A page opened on the build the processes serve now, left open across the deploy.
      const page = await newPage(browser, url);
      await page.goto('/');
      await page.getByRole('link', { name: 'Sign up' }).waitFor();
      await page.evaluate(() => Object.assign(window, { __openedBefore: true }));

      // The next release, built into the folder every web process serves; then the rolling restart,
      // while buyers order through HAProxy. Built without holding this process's event loop: during
      // a build that did (a minute), HAProxy closed the idle keep-alive connections of the set-up's
      // requests (timeout http-keep-alive) unseen, and the first orders went out on them and were
      // lost with no answer, before any web process had stopped.
      await promisify(execFile)(process.execPath, ['scripts/build-web.mjs', '--out-dir', dist], {
        cwd: repositoryRoot,
        env: { ...process.env, ADMIT_RELEASE: 'rolling' },
        maxBuffer: 64 * 1024 * 1024,
      });
      let restarting = true;
      const answers: (number | string)[] = [];
      let next = 0;
      const buying = Promise.all(
        [0, 1, 2, 3].map(async () => {
          // Four buyers at a time, each ordering once, a second apart, until the restart is over. Each
          // order is sent once: every one gets its answer the first time, none is sent again.
          while (restarting && next < buyers.length) {
            const buyer = buyers[next++]!;
            const answer = await post(url, buyer, 'orders.create', orderInput(sale)).then(
              ({ status }) => status,
              (error: Error) => `${error.message}: ${String(error.cause)}`,
            );
            answers.push(answer);
            await sleep(1_000);
          }
        }),
      );
      await topology!.restartWeb();
      restarting = false;
      await buying;
      const answered = answers.filter((status) => status === 200).length;
      console.log(`rolling restart: ${answers.length} orders sent, ${answered} answered 200 the first time`);
      expect(answers.length).toBeGreaterThan(8);
      expect(answers.filter((status) => status !== 200)).toEqual([]);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query(`select count(*)::int as orders from "order" where event_id = $1`, [sale.eventId]);
        expect(rows[0].orders).toBe(answers.length);
      } finally {
        await client.end();
      }

      // Every process is on the new build; the page, on the earlier one, opens screens it never opened.
      const current = new Set(readdirSync(path.join(dist, 'assets')));
      const chunks: string[] = [];
      page.on('response', (response) => {
        const { pathname } = new URL(response.url());
        if (/^\/assets\/(sign-up-page|forgot-password-page|accessibility-page)-/.test(pathname))
          chunks.push(`${response.status()} ${pathname}`);
      });
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Create your Admit account' }).waitFor();
      await page.getByRole('link', { name: 'Accessibility' }).click();
      await page.getByRole('heading', { name: 'Accessibility statement' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { __openedBefore?: boolean }).__openedBefore)).toBe(true);
      expect(chunks.length).toBeGreaterThanOrEqual(2);
      for (const line of chunks) {
        expect(line).toMatch(/^200 /);
        expect(current.has(line.split('/assets/')[1]!)).toBe(false);
      }
    } finally {
      await browser.close();
    }
  }, 300_000);

  it('stops HAProxy, the web processes, the worker and PgBouncer cleanly', async () => {
    const exits = await topology!.stop();
    topology = undefined;
    expect(exits.map((exit) => exit.name).sort()).toEqual(expect.arrayContaining(['haproxy', 'pgbouncer']));
    expect(exits.filter((exit) => !stoppedCleanly(exit))).toEqual([]);
  });
});
