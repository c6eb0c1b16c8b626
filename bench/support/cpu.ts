// Where the machine's CPU went during a measurement, read from Linux's /proc: the server, PostgreSQL
// and the benchmark share the cores, and so does whatever else runs there, so a figure is only
// comparable with the CPU beside it.
import { readdirSync, readFileSync } from 'node:fs';
import { round } from './stats';

const ticksPerSecond = 100; // USER_HZ on Linux

/** The machine's CPU time so far, in ticks, by kind: user nice system idle iowait irq softirq steal guest guest_nice. */
function machineTicks(): number[] {
  return readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
}

function processCpuSeconds(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')'): utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0; // the process ended between listing and reading
  }
}

function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += processCpuSeconds(entry);
    } catch {
      // gone, or not ours to read
    }
  }
  return total;
}

function machineBusySeconds(): number {
  // Everything but idle and iowait is busy.
  const busy = machineTicks().reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return busy / ticksPerSecond;
}

/** CPU seconds used so far by one process (the server), all PostgreSQL processes, this process, and the whole machine. */
export interface CpuSample {
  at: number;
  server: number;
  postgres: number;
  bench: number;
  machineBusy: number;
}

export function sampleCpu(serverPid: number): CpuSample {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    server: processCpuSeconds(serverPid),
    postgres: postgresCpuSeconds(),
    bench: (own.user + own.system) / 1e6,
    machineBusy: machineBusySeconds(),
  };
}

/**
 * Where the CPU went between two samples, in cores (1.0 = one core busy all the time). PostgreSQL
 * counts every postgres process on the machine, so other work on the same server shows up there.
 */
export function cpuBetween(before: CpuSample, after: CpuSample) {
  const seconds = (after.at - before.at) / 1000;
  const cores = (a: number, b: number) => round((b - a) / seconds);
  return {
    serverCores: cores(before.server, after.server),
    postgresCores: cores(before.postgres, after.postgres),
    loadGeneratorCores: cores(before.bench, after.bench),
    machineBusyCores: cores(before.machineBusy, after.machineBusy),
    /** Busy cores not accounted for by the three above: anything else running on the machine. */
    otherCores: cores(
      before.machineBusy - before.server - before.postgres - before.bench,
      after.machineBusy - after.server - after.postgres - after.bench,
    ),
  };
}

export interface StealSample {
  total: number;
  steal: number;
}

/** The machine's CPU time so far and what the host took from it for other guests (steal); undefined off Linux. */
export function sampleSteal(): StealSample | undefined {
  try {
    const ticks = machineTicks();
    return { total: ticks.slice(0, 8).reduce((sum, value) => sum + value, 0), steal: ticks[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The share of CPU time the host took from this machine between two samples, in %: a noisy neighbour slows every figure. */
export function stealPercent(before: StealSample | undefined, after: StealSample | undefined): number | undefined {
  if (!before || !after || after.total === before.total) return undefined;
  return round(((after.steal - before.steal) / (after.total - before.total)) * 100, 1);
}

/** CPU seconds so far of named groups of processes (web processes, workers, HAProxy…), PostgreSQL, this process and the machine. */
export interface GroupCpuSample {
  at: number;
  groups: Record<string, number>;
  postgres: number;
  bench: number;
  machineBusy: number;
}

/** sampleCpu for several processes in named groups; a process that has ended counts what it used up to its last sample as 0 (read it before it ends). */
export function sampleGroupCpu(groups: Record<string, readonly number[]>): GroupCpuSample {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    groups: Object.fromEntries(
      Object.entries(groups).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0)]),
    ),
    postgres: postgresCpuSeconds(),
    bench: (own.user + own.system) / 1e6,
    machineBusy: machineBusySeconds(),
  };
}

/** Where the CPU went between two group samples, in cores: each group, PostgreSQL, the load generator, and everything else. */
export function groupCpuBetween(before: GroupCpuSample, after: GroupCpuSample) {
  const seconds = (after.at - before.at) / 1000;
  const cores = (a: number, b: number) => round((b - a) / seconds);
  const groups = Object.fromEntries(
    Object.keys(after.groups).map((name) => [`${name}Cores`, cores(before.groups[name] ?? 0, after.groups[name] ?? 0)]),
  );
  const accounted = (sample: GroupCpuSample) =>
    Object.values(sample.groups).reduce((sum, value) => sum + value, 0) + sample.postgres + sample.bench;
  return {
    ...groups,
    postgresCores: cores(before.postgres, after.postgres),
    loadGeneratorCores: cores(before.bench, after.bench),
    machineBusyCores: cores(before.machineBusy, after.machineBusy),
    /** Busy cores not accounted for by the groups, PostgreSQL and the load generator: anything else on the machine. */
    otherCores: cores(before.machineBusy - accounted(before), after.machineBusy - accounted(after)),
  } as Record<string, number>;
}
