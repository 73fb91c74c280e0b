import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/**
 * An S3-protocol server on 127.0.0.1 for the S3 contract suite. s3rver runs under Bun directly.
 * It does not verify SigV4 signatures, so these tests prove the protocol, not the credentials.
 */
export async function startLocalS3(bucket = 'sealbox-test'): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'sealbox-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The server's environment for this bucket (docs/operations.md "Running several instances"). */
export function s3Env(s3: LocalS3): Record<string, string> {
  return {
    BLOB_STORE: `s3://${s3.bucket}`,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}
