// The exports module's surface: what app.ts composes.
export { registerExportRoutes } from './exports.routes';
