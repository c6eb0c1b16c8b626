// Preloaded into the server (NODE_OPTIONS=--import=…) by server-profiler.ts: Node refuses --cpu-prof in
// NODE_OPTIONS, and server.ts spawns the server with fixed arguments. SIGUSR2 starts
// V8's CPU profiler through the inspector; the next SIGUSR2 stops it and writes the profile to
// BENCH_CPU_PROFILE_FILE, so that the profile covers the timed run only (not start-up or set-up).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.BENCH_CPU_PROFILE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  let profiling = false;
  process.on('SIGUSR2', () => {
    if (!profiling) {
      session.post('Profiler.start');
      profiling = true;
      return;
    }
    profiling = false;
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
