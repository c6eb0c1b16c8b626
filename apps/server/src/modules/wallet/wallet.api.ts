// The wallet module's surface: what app.ts registers. Everything else in this folder is its own.
export { registerWalletRoutes } from './wallet.routes';
export { pushPassUpdatesJob } from './pass-updates';
export { syncGoogleObjectsJob } from './google-updates';
