import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './options';

/** The commit checked out in `root`, or undefined outside a git checkout (a copied tree). */
export function gitCommit(root = repositoryRoot): string | undefined {
  try {
    return execSync('git rev-parse HEAD', { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export interface Result {
  /** A name the person running it gave this run (BENCH_LABEL), e.g. what it was compared with. */
  label?: string;
  /** Where the server's code came from when it was not this checkout (BENCH_SERVER_ROOT). */
  serverCode?: string;
  machine: unknown;
  inputs: unknown;
  figures: unknown;
  /** Every sample, when the figures are summaries of them. */
  timings?: unknown;
}

/**
 * Writes bench/results/<benchmark>.json, the benchmark's one result file: a run replaces it, and
 * variants of a run (a label, a profile, another server or database) are fields inside it, never
 * other files, so that bench/results/ holds exactly what bench/README.md quotes.
 */
export function writeResult(benchmark: string, result: Result, codeRoot = repositoryRoot): string {
  const { label, serverCode, machine, inputs, figures, timings } = result;
  const report = {
    benchmark,
    label,
    date: new Date().toISOString(),
    commit: gitCommit(codeRoot),
    serverCode,
    machine,
    inputs,
    figures,
    timings,
  };
  const file = path.join(repositoryRoot, 'bench/results', `${benchmark}.json`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${path.relative(repositoryRoot, file)}`);
  return file;
}
