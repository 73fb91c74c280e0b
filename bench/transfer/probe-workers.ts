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
