// `npm start`: build what is not built, then run the server (it applies migrations and serves on PORT).
import './check-node.mjs';
import { register } from 'tsx/esm/api';
import { buildWebIfNeeded } from './build-if-needed.mjs';

buildWebIfNeeded();
register();
await import('../apps/server/src/main.ts');
