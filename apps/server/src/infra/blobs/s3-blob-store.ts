import type { S3Client } from 'bun';
import type { BlobStore } from '../../ports/blob-store.ts';
import { assertBlobKey, assertBlobPrefix, checkRange, chunksOf, notFound } from './blob-key.ts';

/** Parts are buffered one at a time (times queueSize in flight), never the whole object. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const DELETE_ATTEMPTS = 3;
const RETRYABLE = new Set(['InternalError', 'ServiceUnavailable', 'SlowDown']);

const isRetryable = (error: unknown) => RETRYABLE.has((error as { code?: unknown } | null)?.code as string);

/**
 * Blobs as objects of one bucket through Bun's built-in S3 client. Streams go up as a multipart
 * upload, which S3 only makes visible once completed: a failed put leaves no object behind
 * (and is aborted, so no parts linger either).
 */
export function createS3BlobStore(client: S3Client): BlobStore {
  async function sizeOrNull(key: string): Promise<number | null> {
    assertBlobKey(key);
    try {
      return (await client.stat(key)).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    async put(key, body) {
      assertBlobKey(key);
      if (body instanceof Uint8Array) {
        await client.write(key, body);
        return { size: body.byteLength };
      }
      const writer = client.file(key).writer({ partSize: PART_SIZE, queueSize: PARTS_IN_FLIGHT, retry: 3 });
      let size = 0;
      for await (const chunk of chunksOf(body)) {
        // Awaiting the pending write is the back-pressure that keeps memory bounded.
        await writer.write(chunk);
        size += chunk.byteLength;
      }
      // Only reached when every chunk arrived. On an error there is deliberately no end():
      // Bun's end(error) still completes the upload, which would publish a truncated object.
      // Unended, the multipart upload is never completed, so never visible; its parts are
      // reclaimed by the bucket's AbortIncompleteMultipartUpload rule.
      await writer.end();
      return { size };
    },

    async get(key, range) {
      const size = await sizeOrNull(key);
      if (size === null) throw notFound();
      const file = client.file(key);
      if (!range) return file.stream();
      const { start, endExclusive } = checkRange(range, size);
      // Some S3-compatible servers (s3rver for "bytes=0-0") answer a range with more than asked.
      return limitStream(file.slice(start, endExclusive).stream(), endExclusive - start);
    },

    async size(key) {
      const size = await sizeOrNull(key);
      if (size === null) throw notFound();
      return size;
    },

    async exists(key) {
      return (await sizeOrNull(key)) !== null;
    },

    async delete(key) {
      assertBlobKey(key);
      // S3 asks clients to retry InternalError and its kin; a delete is safe to repeat (s3rver
      // also answers two deletes of one key at once with one InternalError).
      for (let attempt = 1; ; attempt++) {
        try {
          await client.delete(key);
          return;
        } catch (error) {
          if (isMissing(error)) return;
          if (attempt >= DELETE_ATTEMPTS || !isRetryable(error)) throw error;
          await Bun.sleep(50 * attempt);
        }
      }
    },

    async *list(prefix = '') {
      assertBlobPrefix(prefix);
      let continuationToken: string | undefined;
      do {
        const page = await client.list({ prefix, ...(continuationToken ? { continuationToken } : {}) });
        for (const object of page.contents ?? []) yield object.key;
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
    },

    async health() {
      await client.list({ prefix: 'health-probe', maxKeys: 1 });
    },
  };
}

function limitStream(source: ReadableStream<Uint8Array>, length: number): ReadableStream<Uint8Array> {
  let remaining = length;
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (remaining <= 0) {
        controller.close();
        await reader.cancel().catch(() => {});
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      const chunk = value.byteLength > remaining ? value.subarray(0, remaining) : value;
      remaining -= chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'NoSuchKey' || code === 'ERR_S3_FILE_NOT_FOUND' || code === 'NotFound';
}
