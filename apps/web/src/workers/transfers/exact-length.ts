/**
 * A download's decrypted bytes must be exactly the size the listing recorded (docs/protocol.md
 * "Downloads (browser)"). Each chunk proves its own place in the file, and the last-chunk flag
 * proves where it ends, but the size sent as Content-Length comes from the listing: a listing that
 * claims fewer (or more) bytes than the blob decrypts to must fail the download, not save a file
 * whose length nobody checked.
 */

/** Error code of a decrypted length that differs from the recorded size. */
export const SIZE_MISMATCH = 'SIZE_MISMATCH';

function mismatch(message: string): Error {
  return Object.assign(new Error(message), { code: SIZE_MISMATCH });
}

/** Passes bytes through unchanged, and errors as soon as they exceed `size`, or end short of it. */
export function exactLength(size: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.length;
      if (seen > size) throw mismatch(`decrypted more than the recorded ${size} bytes`);
      controller.enqueue(chunk);
    },
    flush() {
      if (seen !== size) throw mismatch(`decrypted ${seen} bytes, the recorded size is ${size}`);
    },
  });
}
