/**
 * The ceiling probes' service workers (issue 13), added to a copy of the built app only: each
 * has its own scope, narrower than the app's, so the app's worker stays in charge of the rest.
 */
import { CHUNK } from './settings.ts';

export const PASSTHROUGH_SCOPE = '/bench-passthrough/';
export const PASSTHROUGH_SCRIPT = 'bench-passthrough-sw.js';
/**
 * The probe for the ceiling of any streamed service-worker answer: it answers with the fetched
 * ciphertext untouched, no JavaScript on the bytes.
 */
export const PASSTHROUGH_SW = `self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url)
  if (!url.pathname.startsWith('${PASSTHROUGH_SCOPE}')) return
  const id = url.pathname.slice(${PASSTHROUGH_SCOPE.length})
  event.respondWith(fetch('/api/file/data/' + id, { cache: 'no-store' }).then((r) => new Response(r.body, { status: 200, headers: {
    'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="passthrough.bin"',
    'content-length': r.headers.get('content-length'), 'cache-control': 'no-store' } })))
})`;

export const DECRYPT_SCOPE = '/bench-decrypt/';
export const DECRYPT_SCRIPT = 'bench-decrypt-sw.js';
/**
 * The ceiling probe with the app's unavoidable work (issue 13): a service worker that streams a
 * file's ciphertext from the server like the passthrough and decrypts every 256 KiB chunk with
 * AES-GCM (WebCrypto, the format of @sealbox/crypto: nonce_i = fileNonce XOR u32be(i) in its last
 * 4 bytes, AAD = u32be(i) || u8(last), 3 decrypts in flight like the app's stream), and nothing
 * else (no listing, no zip planning, no key RPC: the bench's own key and nonce are in the script).
 */
export const DECRYPT_SW = (key: Uint8Array, fileNonce: Uint8Array, size: number) => `const KEY = new Uint8Array([${[...key]}])
const NONCE = new Uint8Array([${[...fileNonce]}])
const SIZE = ${size}, CHUNK = ${CHUNK}, CC = CHUNK + 16, N = Math.max(1, Math.ceil(SIZE / CHUNK))
self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url)
  if (!url.pathname.startsWith('${DECRYPT_SCOPE}')) return
  const id = url.pathname.slice(${DECRYPT_SCOPE.length})
  event.respondWith((async () => {
    const key = await crypto.subtle.importKey('raw', KEY, 'AES-GCM', false, ['decrypt'])
    const r = await fetch('/api/file/data/' + id, { cache: 'no-store' })
    const reader = r.body.getReader()
    const decrypt = (i, cipher) => {
      const iv = NONCE.slice()
      iv[8] ^= i >>> 24; iv[9] ^= (i >>> 16) & 255; iv[10] ^= (i >>> 8) & 255; iv[11] ^= i & 255
      const additionalData = new Uint8Array([i >>> 24, (i >>> 16) & 255, (i >>> 8) & 255, i & 255, i === N - 1 ? 1 : 0])
      return crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData }, key, cipher).then((p) => new Uint8Array(p))
    }
    const queue = []
    let index = 0, piece = new Uint8Array(CC), fill = 0, rest = new Uint8Array(0), ended = false
    const body = new ReadableStream({
      async pull(controller) {
        while (queue.length < 3 && !ended) {
          if (rest.length === 0) {
            const { value, done } = await reader.read()
            if (done) {
              ended = true
              if (fill > 0) queue.push(decrypt(index++, piece.subarray(0, fill)))
              break
            }
            rest = value
          }
          const n = Math.min(rest.length, CC - fill)
          piece.set(rest.subarray(0, n), fill)
          fill += n
          rest = rest.subarray(n)
          if (fill === CC) {
            queue.push(decrypt(index++, piece))
            piece = new Uint8Array(CC)
            fill = 0
          }
        }
        if (queue.length > 0) controller.enqueue(await queue.shift())
        else controller.close()
      },
    }, { highWaterMark: 0 })
    return new Response(body, { status: 200, headers: { 'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="decrypt.bin"', 'content-length': String(SIZE), 'cache-control': 'no-store' } })
  })())
})`;

/**
 * The upload's ceiling probe (issue 27 part 5), run in the page as a dedicated worker, as the
 * app's crypto worker is: it streams the picked file (read straight into 256 KiB chunks),
 * encrypts each chunk with AES-GCM in the app's format (3 in flight), writes PART_BYTES of
 * ciphertext to an origin-private file and PUTs that file (3 in flight) through the same part
 * protocol. Nothing of the app around it: no part fingerprints, no IndexedDB records, no
 * progress, no key wrapping, no retries. Parts go as OPFS files because that is the only way to
 * send bytes made in a page that Chromium does not keep: an ArrayBuffer body stays in the
 * renderer for the life of the process (docs/benchmarks.md "bench/transfer"); a first version of
 * this probe sent ArrayBuffers, held 1.2 GiB per GiB sent, spent 12.5 renderer CPU-seconds on
 * them, and later 1 GiB downloads in that renderer stalled. Answers the new item's id.
 */
export const UPLOAD_PROBE_SCRIPT = 'bench-upload-probe.js';
/** The probe worker's script, added to the copy of the built app (the app's CSP allows only same-origin workers). */
export const UPLOAD_PROBE_WORKER = `(${encryptingUploader.toString()})()`;
export const ENCRYPT_UPLOAD = (partBytes: number, size: number, input = 'bench-plain') => `(async () => {
  const file = document.getElementById('${input}').files[0]
  const worker = new Worker('/${UPLOAD_PROBE_SCRIPT}')
  const answer = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data)
    worker.onerror = (event) => resolve({ error: 'probe worker: ' + event.message })
    worker.postMessage({ file, origin: location.origin, partBytes: ${partBytes}, size: ${size}, chunk: ${CHUNK} })
  })
  worker.terminate()
  if (answer.error) throw new Error(answer.error)
  return answer.id
})()`;

/** The probe worker's code, written out as its script (never run in Bun). */
function encryptingUploader() {
  self.onmessage = async (event: MessageEvent) => {
    const { file, origin, partBytes, size, chunk } = event.data as {
      file: File;
      origin: string;
      partBytes: number;
      size: number;
      chunk: number;
    };
    try {
      const b64 = (n: number) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))));
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
      const nonce = crypto.getRandomValues(new Uint8Array(12));
      const id = crypto.randomUUID();
      const form = new FormData();
      const fields = { encryptedFileName: b64(40), nameNonce: b64(12), encryptedKey: b64(48), keyNonce: b64(12) };
      const chunks = Math.max(1, Math.ceil(size / chunk));
      const cipherSize = size + 16 * chunks;
      // The item's recorded size is its ciphertext's (docs/protocol.md "Files and uploads").
      const more = { encryptedMimeType: b64(40), mimeTypeNonce: b64(12), fileNonce: b64(12), size: cipherSize };
      form.set('metadata', JSON.stringify({ id, parentId: null, isDirectory: false, ...fields, ...more }));
      const created = await (await fetch(`${origin}/api/upload`, { method: 'POST', body: form })).json();
      const reader = file.stream().getReader({ mode: 'byob' });
      // read(view, { min }) is newer than this project's DOM types.
      const read = reader.read.bind(reader) as unknown as (
        view: Uint8Array<ArrayBuffer>,
        options: { min: number },
      ) => Promise<ReadableStreamReadResult<Uint8Array<ArrayBuffer>>>;
      const sends = new Set<Promise<void>>();
      const encrypting: Promise<ArrayBuffer>[] = [];
      // Four part files: three being sent and one being filled.
      type Access = { write(b: Uint8Array, o: { at: number }): number; truncate(n: number): void; close(): void };
      type SyncHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<Access> };
      const root = await navigator.storage.getDirectory();
      const handles = (await Promise.all(
        [0, 1, 2, 3].map((k) => root.getFileHandle(`bench-probe-${id}-${k}`, { create: true })),
      )) as SyncHandle[];
      const free = [0, 1, 2, 3];
      let n = 0;
      let slot = free.pop()!;
      let access = await handles[slot]!.createSyncAccessHandle();
      let fill = 0;
      const partLength = (index: number) => Math.min(partBytes, cipherSize - index * partBytes);
      const send = async (body: Blob, index: number) => {
        const r = await fetch(`${origin}/api/upload/${created.uploadId}/part/${index}`, { method: 'PUT', body });
        if (!r.ok) throw new Error(`part ${index}: ${r.status} ${await r.text()}`);
      };
      const place = async (cipher: Uint8Array) => {
        access.write(cipher, { at: fill });
        fill += cipher.length;
        if (fill < partLength(n)) return;
        access.truncate(fill);
        access.close();
        const body = await handles[slot]!.getFile();
        const sent = slot;
        const p: Promise<void> = send(body, n++).finally(() => {
          sends.delete(p);
          free.push(sent);
        });
        sends.add(p);
        fill = 0;
        if (n * partBytes >= cipherSize) return;
        while (free.length === 0) await Promise.race(sends);
        slot = free.pop()!;
        access = await handles[slot]!.createSyncAccessHandle();
      };
      for (let i = 0; i < chunks; i++) {
        let plain = new Uint8Array(Math.min(chunk, size - i * chunk));
        if (plain.length > 0) plain = (await read(plain, { min: plain.length })).value!;
        const iv = nonce.slice();
        const view = new DataView(iv.buffer);
        view.setUint32(8, view.getUint32(8) ^ i);
        const aad = new Uint8Array(5);
        new DataView(aad.buffer).setUint32(0, i);
        aad[4] = i === chunks - 1 ? 1 : 0;
        encrypting.push(crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plain));
        if (encrypting.length >= 3) await place(new Uint8Array(await encrypting.shift()!));
      }
      while (encrypting.length > 0) await place(new Uint8Array(await encrypting.shift()!));
      await Promise.all(sends);
      await Promise.all(handles.map((h) => root.removeEntry(h.name)));
      const done = await fetch(`${origin}/api/upload/${created.uploadId}/complete`, { method: 'POST' });
      if (!done.ok) throw new Error(`complete: ${done.status}`);
      self.postMessage({ id });
    } catch (error) {
      self.postMessage({ error: String(error) });
    }
  };
}
