// A benchmark's options come from the environment (`BENCH_SECONDS=30 npm run bench:flash-sale`), the
// same way for every benchmark; bench/README.md lists each one beside the command that uses it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: where bench/results/ is, and the server code a run uses unless told otherwise. */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A number option, e.g. `numberOption('BENCH_SECONDS', 15)`; refuses what is not a number rather than running with NaN. */
export function numberOption(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, not ${JSON.stringify(raw)}`);
  return value;
}

/** A switch: on only when set to 1 (`BENCH_PROFILE=1`). */
export function flagOption(name: string): boolean {
  return process.env[name] === '1';
}

/** A free-text option, or undefined when unset or empty. */
export function textOption(name: string): string | undefined {
  return process.env[name] || undefined;
}

/** BENCH_DATABASE_URL: an admin URL of the PostgreSQL server that scratch databases are made on. */
export function adminDatabaseUrl(): string {
  return textOption('BENCH_DATABASE_URL') ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/**
 * BENCH_SERVER_ROOT: run the server from another checkout (a scratch copy with a proposed change),
 * so that the same benchmark measures the change and the code without it.
 */
export function serverRootOption(): string {
  return path.resolve(textOption('BENCH_SERVER_ROOT') ?? repositoryRoot);
}
