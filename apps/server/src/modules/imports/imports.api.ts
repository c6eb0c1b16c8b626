// The imports module's surface: what app.ts composes. Everything else in this folder is its own.
export { importsCallables } from './imports.functions';
