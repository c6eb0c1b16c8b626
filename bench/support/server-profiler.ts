import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { summarizeCpuProfile } from './cpu-profile-summary';
import { repositoryRoot } from './options';
import type { RunningServer } from './server';

/**
 * A V8 CPU profile of the server over one measured stretch only (not its start-up or the set-up):
 * start the server with `env`, then `start` and `stop` around what is measured. The profiler slows
 * the server somewhat, so a profiled run's other figures are not comparable with a plain run's.
 */
export function serverProfiler() {
  const directory = mkdtempSync(path.join(tmpdir(), 'admit-bench-profile-'));
  const file = path.join(directory, 'server.cpuprofile');
  return {
    env: {
      NODE_OPTIONS: `--import=${path.join(repositoryRoot, 'bench/support/cpu-profile-preload.mjs')}`,
      BENCH_CPU_PROFILE_FILE: file,
    },
    start(server: RunningServer) {
      server.process.kill('SIGUSR2');
    },
    /** Stops the profiler, waits for the server to write the profile and sums it up. */
    async stop(server: RunningServer) {
      server.process.kill('SIGUSR2');
      for (let waited = 0; !existsSync(file) && waited < 30_000; waited += 200) await sleep(200);
      return summarizeCpuProfile(file);
    },
    remove() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
