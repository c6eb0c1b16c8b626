// `npm run worker`: the background jobs in a process of their own (apps/server/src/worker.ts), for
// deployments where web processes run with JOB_WORKERS=off. Started with `exec`, like npm start.
import './check-node.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../apps/server/src/worker.ts');
