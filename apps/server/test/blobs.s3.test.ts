import { S3Client } from 'bun';
import { blobStoreContract } from './contracts/blob-store.contract.ts';
import { reportUnavailable } from './support/services.ts';
import { startLocalS3, type LocalS3 } from './support/s3rver.ts';
import { createS3BlobStore } from '../src/infra/blobs/s3-blob-store.ts';

let s3: LocalS3 | undefined;
let reason = '';
try {
  s3 = await startLocalS3();
} catch (error) {
  reason = `could not start s3rver on 127.0.0.1: ${(error as Error).message}`;
}

if (s3) {
  const local = s3;
  blobStoreContract('s3 (s3rver)', async () => {
    const client = new S3Client({
      endpoint: local.endpoint,
      bucket: local.bucket,
      accessKeyId: local.accessKeyId,
      secretAccessKey: local.secretAccessKey,
      region: 'us-east-1',
    });
    return { store: createS3BlobStore(client), cleanup: () => local.stop() };
  });
} else {
  reportUnavailable('BlobStore contract: s3', reason);
}
