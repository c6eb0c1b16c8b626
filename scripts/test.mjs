// `npm test`: every test (unit, server integration, browser journeys). The journeys need the built app.
import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { buildWebIfNeeded } from './build-if-needed.mjs';

buildWebIfNeeded();
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
