// `npm test`: every test (unit, server integration, browser journeys). The journeys need the built app.
//
// With no arguments the suites run in lanes at once, each one vitest process running one file at a
// time: the browser journeys in one, the unit and server suites on PGlite in another, and the server
// suite on PostgreSQL (when TEST_DATABASE_URL is set) in a third. Each lane's lines are prefixed with
// its name. A journey waits partly on Chromium and the server it talks to, and a server test on its
// database: the lanes keep a two-core machine's both cores busy until the last one ends (with the
// PostgreSQL suite behind the PGlite one in a single lane, it ran on alone on one core for the last
// twenty minutes). With arguments (`npm test -- e2e/phone.test.ts`), one vitest process runs what they name.
import './check-node.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildWebIfNeeded } from './build-if-needed.mjs';

buildWebIfNeeded();

const args = process.argv.slice(2);
if (args.length > 0) {
  const result = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const lanes = [
  { name: 'journeys', projects: ['e2e'] },
  { name: 'server', projects: ['unit', 'server'] },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', projects: ['server-postgres'] }] : []),
];

/** Runs one lane to its end; resolves to its exit status. */
function runLane({ name, projects }) {
  const started = Date.now();
  const child = spawn('npx', ['vitest', 'run', ...projects.flatMap((project) => ['--project', project])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Through a pipe vitest writes no colours: keep them when this runs in a terminal.
    env: process.stdout.isTTY && !('NO_COLOR' in process.env) ? { ...process.env, FORCE_COLOR: '1' } : process.env,
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`[${name}] ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s`);
      resolve(code ?? 1);
    });
  });
}

const statuses = await Promise.all(lanes.map(runLane));
const failed = lanes.filter((_, index) => statuses[index] !== 0).map((lane) => lane.name);
if (failed.length > 0) {
  console.log(`Failed lanes: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('Every lane passed.');
