// What `npm run topology:check` (and bench/flash-sale, before it measures) checks of a running
// topology: each web process in HAProxy's rotation and answering its health check, requests spread
// over all of them, the callable protocol and a /live WebSocket through HAProxy.
import WebSocket from 'ws';
import { haproxyCommand, type Topology } from './topology';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** Requests each backend server has answered so far (HAProxy's `stot`), by server name. */
async function answeredBy(topology: Topology): Promise<Record<string, number>> {
  const csv = await haproxyCommand(`${topology.configDir}/haproxy.sock`, 'show stat');
  const [header, ...rows] = csv.trim().split('\n');
  const columns = header!.replace(/^# /, '').split(',');
  const counts: Record<string, number> = {};
  for (const row of rows.map((line) => line.split(','))) {
    const server = row[columns.indexOf('svname')]!;
    if (row[columns.indexOf('pxname')] === 'web' && !['BACKEND', 'FRONTEND'].includes(server))
      counts[server] = Number(row[columns.indexOf('stot')]);
  }
  return counts;
}

/** Opens /live through HAProxy, subscribes to an event's availability, and resolves with the first message's type. */
function liveFirstMessage(url: string, eventId: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/live`);
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('no message on /live'));
    }, timeoutMs);
    socket.once('open', () =>
      socket.send(JSON.stringify({ type: 'subscribe', id: 'check', query: 'events.availability', params: { eventId } })),
    );
    socket.once('message', (data) => {
      clearTimeout(timer);
      socket.close();
      resolve(String((JSON.parse(String(data)) as { type?: unknown }).type));
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

export async function checkTopology(topology: Topology): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const check = async (name: string, run: () => Promise<string>) => {
    try {
      results.push({ name, ok: true, detail: await run() });
    } catch (error) {
      results.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  };

  await check('every running web process is UP in HAProxy (GET /healthz)', async () => {
    await topology.waitForBackends();
    return (await topology.backendState()).map((server) => `${server.name} ${server.status}`).join(', ');
  });

  await check('requests are spread round robin over every web process', async () => {
    const running = topology.web.filter((one) => one.process?.running()).map((one) => one.slot);
    const before = await answeredBy(topology);
    const requests = running.length * 4;
    for (let sent = 0; sent < requests; sent++) {
      // A new connection each time (no keep-alive), as many browsers are.
      const response = await fetch(`${topology.url}/healthz`, { headers: { connection: 'close' } });
      if (response.status !== 200) throw new Error(`GET /healthz answered ${response.status}`);
    }
    const after = await answeredBy(topology);
    const spread = running.map((slot) => `${slot} +${(after[slot] ?? 0) - (before[slot] ?? 0)}`);
    const idle = running.filter((slot) => (after[slot] ?? 0) === (before[slot] ?? 0));
    if (idle.length > 0) throw new Error(`${idle.join(', ')} got none of ${requests} requests (${spread.join(', ')})`);
    return `${requests} × GET /healthz: ${spread.join(', ')}`;
  });

  await check('a callable answers through HAProxy (signed out: 401 UNAUTHENTICATED)', async () => {
    const response = await fetch(`${topology.url}/fn/orders.cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: topology.publicUrl },
      body: JSON.stringify({ data: { orderId: 'none' } }),
    });
    const body = (await response.json()) as { error?: { status?: string } };
    if (response.status !== 401 || body.error?.status !== 'UNAUTHENTICATED')
      throw new Error(`answered ${response.status} ${JSON.stringify(body)}`);
    return '401 UNAUTHENTICATED';
  });

  await check('/live upgrades to a WebSocket through HAProxy and answers a subscription', async () => {
    const type = await liveFirstMessage(topology.url, 'no-such-event');
    return `first message: ${type}`;
  });
  return results;
}
