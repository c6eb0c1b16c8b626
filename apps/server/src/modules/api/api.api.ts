// The REST API module's surface: what app.ts composes. It sits on top of the other modules (it
// calls their surfaces); no module imports it.
export { apiKeysCallables } from './api-keys.functions';
export { apiKeysLiveQueries } from './api-keys.live';
export { registerApiRoutes } from './api-server';
