import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../platform/files/s3-storage';

/**
 * A local S3-compatible server (s3rver) with one bucket, for the S3 storage driver's tests: the
 * real AWS SDK talks to it over HTTP, as it would to S3, MinIO or R2.
 */
export async function startS3StandIn(bucket = 'admit-test') {
  const directory = await mkdtemp(path.join(tmpdir(), 'admit-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket,
    // s3rver's fixed development credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    settings,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
