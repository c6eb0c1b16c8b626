import { spawnSync } from 'node:child_process';

/** The journeys run against the built app: build it first when its sources changed. */
export default function setup() {
  const result = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('Building the web app failed');
}
