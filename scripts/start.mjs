// `npm start`: build what is not built, then run the server (it applies migrations and serves on PORT).
// package.json runs this with `exec`: npm then has the server as its child and passes SIGTERM and SIGINT
// to it; with a shell in between, the shell died of them and the server ran on (decision 0032).
import './check-node.mjs';
import { register } from 'tsx/esm/api';
import { buildWebIfNeeded } from './build-if-needed.mjs';

buildWebIfNeeded();
register();
await import('../apps/server/src/main.ts');
