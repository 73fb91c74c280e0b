/**
 * Preview streams' page side (docs/protocol.md "Preview streams"): a same-origin URL a media
 * element reads with HTTP Range, answered by the service worker, which fetches and decrypts only
 * the chunks each range needs. As for downloads, the page only makes the MessageChannel and the
 * token; the key goes crypto worker -> service worker.
 *
 * Every URL is its own stream: call `releasePreviewStream(url)` when the view that plays it goes
 * (the service worker drops the job and its key). While any stream is open this page tells the
 * service worker every PREVIEW_KEEP_MS that it still plays them, so a paused video can seek
 * minutes later; a closed tab stops telling and the jobs expire after PREVIEW_TTL_MS.
 */
import { cryptoWorker } from '../../crypto/client.ts';
import type { ItemView } from '../../model/items.ts';
import {
  PREVIEW_KEEP_MS,
  PREVIEW_PATH,
  SW_PREVIEW_ALIVE,
  SW_PREVIEW_CLAIM,
  SW_PREVIEW_CLOSE,
  SW_PREVIEW_KEEP,
  SW_PREVIEW_MESSAGE,
  previewMediaType,
} from '../../model/transfers.ts';
import { registerDownloadWorker } from './download.ts';
import type { BrowseScope } from '../../model/browse-scope.ts';

/** docs/product.md "Messages" previewer texts (the same as features/preview's PREVIEW_ERRORS). */
const STREAM_FAILED = 'Error decrypting file.';
const NO_KEY = 'File encryption key not found';
const NO_NONCE = 'File nonce not found';

const open = new Set<string>();
let keeper: ReturnType<typeof setInterval> | undefined;

/** The service worker that controls this page (media requests only reach it then). */
async function controller(): Promise<ServiceWorker> {
  if (!('serviceWorker' in navigator)) throw new Error('Service workers are not available');
  await registerDownloadWorker();
  const existing = navigator.serviceWorker.controller;
  if (existing) return existing;
  // First visit, or this page loaded while the worker was activating: it claims the page.
  const claimed = new Promise<ServiceWorker>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The preview service worker did not take this page')), 15_000);
    navigator.serviceWorker.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        const now = navigator.serviceWorker.controller;
        if (now) resolve(now);
        else reject(new Error('No controlling service worker'));
      },
      { once: true },
    );
  });
  claimed.catch(() => {}); // awaited below only when needed
  const ready = await navigator.serviceWorker.ready;
  if (navigator.serviceWorker.controller) return navigator.serviceWorker.controller;
  ready.active?.postMessage({ type: SW_PREVIEW_CLAIM });
  return claimed;
}

function keepAlive(): void {
  if (open.size === 0) {
    if (keeper) clearInterval(keeper);
    keeper = undefined;
    return;
  }
  keeper ??= setInterval(() => {
    navigator.serviceWorker?.controller?.postMessage({ type: SW_PREVIEW_KEEP, tokens: [...open] });
  }, PREVIEW_KEEP_MS);
}

/**
 * A stream URL (`/__preview/{token}`) for an audio or video item, to set as a media element's src.
 * The item's key must be open in `scope`'s ring of the crypto worker (it was listed there). Rejects
 * with an Error whose message is docs/product.md "Messages" previewer text ('Error decrypting
 * file.', 'File encryption key not found', 'File nonce not found') when it cannot be made.
 */
export async function previewStreamUrl(
  item: Pick<ItemView, 'id' | 'mimeType' | 'extension'>,
  scope: BrowseScope,
  versionId?: string,
): Promise<string> {
  if (!previewMediaType(item.mimeType, item.extension)) throw new Error(STREAM_FAILED);
  const token = crypto.randomUUID();
  try {
    const worker = await controller();
    const channel = new MessageChannel();
    worker.postMessage({ type: SW_PREVIEW_MESSAGE, token }, [channel.port2]);
    await cryptoWorker.call(
      'preparePreviewStream',
      scope,
      { id: item.id, mimeType: item.mimeType, extension: item.extension, ...(versionId ? { versionId } : {}) },
      channel.port1,
    );
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    throw new Error(code === 'NO_KEY' ? NO_KEY : code === 'BAD_ITEM' ? NO_NONCE : STREAM_FAILED, { cause: error });
  }
  open.add(token);
  keepAlive();
  return `${PREVIEW_PATH}${token}`;
}

/** Ends a stream made by previewStreamUrl: the service worker forgets its job (and key). */
export function releasePreviewStream(url: string): void {
  const token = tokenOf(url);
  if (!token || !open.delete(token)) return;
  keepAlive();
  navigator.serviceWorker?.controller?.postMessage({ type: SW_PREVIEW_CLOSE, token });
}

function tokenOf(url: string): string | undefined {
  const at = url.indexOf(PREVIEW_PATH);
  return at < 0 ? undefined : url.slice(at + PREVIEW_PATH.length);
}

/**
 * Whether the service worker still holds the stream behind `url` (false after it was restarted or
 * updated, which forgets every job): a media element's failure on a lost stream is not a
 * decryption failure, and a new stream can take over.
 */
export async function previewStreamAlive(url: string): Promise<boolean> {
  const token = tokenOf(url);
  const worker = navigator.serviceWorker?.controller;
  if (!token || !worker) return false;
  const channel = new MessageChannel();
  const answer = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 2_000);
    channel.port1.onmessage = (event: MessageEvent) => {
      clearTimeout(timer);
      resolve((event.data as { alive?: unknown })?.alive === true);
    };
  });
  worker.postMessage({ type: SW_PREVIEW_ALIVE, token }, [channel.port2]);
  const alive = await answer;
  channel.port1.close();
  return alive;
}

/** True for URLs made by previewStreamUrl (the views release only those). */
export function isPreviewStreamUrl(url: string): boolean {
  return url.startsWith(PREVIEW_PATH);
}
