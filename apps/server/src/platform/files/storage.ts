import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config';

/** A stored object as read back: its bytes as a stream, with their length. */
export interface StoredObject {
  body: Readable;
  bytes: number;
}

/**
 * Where files live: the local disk under DATA_DIR (the embedded default) or S3-compatible object
 * storage (STORAGE_DRIVER=s3). Keys are paths such as `images/<hash>-800.webp`; nothing is served
 * straight from storage, so private files stay private whatever the bucket's policy (decision 0037).
 */
export interface FileStorage {
  readonly driver: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Deletes the keys; keys that do not exist are no error (a retried cleanup). */
  delete(keys: readonly string[]): Promise<void>;
}

/** Keys are made by the server; anything else (`..`, absolute paths) is refused before it reaches a driver. */
const safeKey = /^[a-z]+\/[a-zA-Z0-9][a-zA-Z0-9._-]{0,200}$/;
export function checkedKey(key: string): string {
  if (!safeKey.test(key) || key.includes('..')) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
  return key;
}
export const isStorageKey = (key: string) => safeKey.test(key) && !key.includes('..');

export function createLocalStorage(root: string): FileStorage {
  const pathOf = (key: string) => path.join(root, checkedKey(key));
  return {
    driver: 'local',
    async put(key, body) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Written whole to a temporary name, then renamed: a reader never sees half a file.
      const temporary = `${target}.${process.pid}.${Date.now()}.part`;
      await writeFile(temporary, body);
      await rename(temporary, target);
    },
    async get(key) {
      const target = pathOf(key);
      const found = await stat(target).catch(() => null);
      if (!found?.isFile()) return null;
      return { body: createReadStream(target), bytes: found.size };
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => rm(pathOf(key), { force: true })));
    },
  };
}

/** The storage the configuration names. S3's driver (and its SDK) is loaded only when it is named. */
export async function storageFromConfig(config: Config): Promise<FileStorage> {
  if (config.STORAGE_DRIVER === 's3') {
    const { createS3Storage } = await import('./s3-storage');
    return createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION!,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createLocalStorage(path.join(config.DATA_DIR, 'files'));
}
