import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock';
import { openDatabase } from './database';

let dataDir: string;
const releases: (() => void)[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'admit-lock-'));
});
afterEach(() => {
  for (const release of releases.splice(0)) release();
  rmSync(dataDir, { recursive: true, force: true });
});

const lockFile = () => path.join(dataDir, 'admit.lock');
const lock = () => {
  const release = acquireDataDirLock(dataDir);
  releases.push(release);
  return release;
};

/** The pid of a process that has already exited. */
function pidOfAFinishedProcess(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the data directory lock', () => {
  it('writes the pid of the process holding it', () => {
    lock();
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
  });

  it('refuses a second lock on the same directory with a message naming the holder and the directory', () => {
    lock();
    let refusal: unknown;
    try {
      lock();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    const { message } = refusal as DataDirLockedError;
    expect(message).toContain(`pid ${process.pid}`);
    expect(message).toContain(path.resolve(dataDir));
    expect(message).toContain('DATA_DIR');
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const stalePid = pidOfAFinishedProcess();
    expect(stalePid).toBeGreaterThan(0);
    writeFileSync(lockFile(), String(stalePid));

    lock();

    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
  });

  it('takes over a lock file that holds no pid', () => {
    writeFileSync(lockFile(), '');
    lock();
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
  });

  it('can be taken again once released, and releasing twice is harmless', () => {
    const release = lock();
    release();
    expect(existsSync(lockFile())).toBe(false);
    lock();
    release();
    expect(existsSync(lockFile())).toBe(true);
  });

  it('keeps a second server from opening the embedded database in a locked directory', async () => {
    lock();
    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });
});
