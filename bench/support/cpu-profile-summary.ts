import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/** Where a script's code lives: a package, one of our folders, a Node module, or one of V8's own buckets. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('node:')) return url;
  const ours = url.match(/(apps\/server\/src\/(?:platform|modules)\/[^/]+|packages\/shared\/src)/);
  return ours ? ours[1]! : url.replace(/^file:\/\//, '');
}

/** Coarse groups of places, so that a profile reads as "sign-in vs database client vs HTTP vs ours". */
const groups: [string, RegExp][] = [
  ['idle (waiting for I/O)', /^\(idle\)$/],
  ['garbage collection', /^\(garbage collector\)$/],
  ['sign-in (better-auth, better-call, jose)', /^(better-auth|@better-auth\/.*|better-call|jose|@noble\/.*|defu|rou3)$/],
  ['database client (drizzle-orm, pg)', /^(drizzle-orm|pg|pg-protocol|pg-pool|pg-types|postgres-.*|pgpass)$/],
  [
    'HTTP (fastify and its parts, pino)',
    /^(fastify|@fastify\/.*|avvio|find-my-way|light-my-request|pino|pino-std-serializers|fast-json-stringify|secure-json-parse|toad-cache|content-type|fast-querystring|abstract-logging|process-warning|helmet)$/,
  ],
  ['validation (zod)', /^zod$/],
  ['our code (apps/server, packages/shared)', /^(apps\/server|packages\/shared)/],
  ['Node sockets and streams', /^node:(net|stream|internal\/(streams|stream_base_commons|net|dns))/],
  ['Node other (modules, crypto, timers, ...)', /^node:/],
  ['native calls (syscalls such as writev)', /^\(native\)$/],
  ['V8 (program, compiling)', /^\((program|root)\)$/],
];

function groupOf(place: string): string {
  return groups.find(([, pattern]) => pattern.test(place))?.[0] ?? `other packages`;
}

/** Sums a V8 CPU profile of the server: self time by group, by package or module, and the busiest functions. */
export function summarizeCpuProfile(file: string) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const msPerSample = totalMs / Math.max(1, profile.samples.length);
  const selfMs = (node: ProfileNode) => (node.hitCount ?? 0) * msPerSample;

  const byGroup = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url, functionName);
    const ms = selfMs(node);
    byGroup.set(groupOf(place), (byGroup.get(groupOf(place)) ?? 0) + ms);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    const name = `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), share: Math.round((ms / totalMs) * 1000) / 10 }));
  return {
    profiledMs: Math.round(totalMs),
    byGroup: top(byGroup, groups.length + 1),
    byPlace: top(byPlace, 20),
    topFunctions: top(byFunction, 25),
  };
}
