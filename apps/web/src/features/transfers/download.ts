/**
 * Downloads to disk through the download service worker (workers/download.sw.ts, /sw.js).
 *
 * Keys travel crypto worker -> MessagePort -> service worker: the page only makes the channel,
 * gives one end to each, and opens /__download/{token} once the service worker holds the job.
 * No key bytes, and no decrypted bytes, pass through this thread or React state.
 */
import { toast } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import type { ItemView } from '../../model/items.ts';
import {
  MSG_DOWNLOAD_FAILED,
  MSG_FOLDER_FAILED,
  MSG_FOLDER_INTEGRITY_FAILED,
  MSG_INTEGRITY_FAILED,
} from '../../model/transfer-plan.ts';
import {
  DOWNLOAD_PATH,
  SW_CANCEL_MESSAGE,
  SW_CANCELLED_MESSAGE,
  SW_ERROR_MESSAGE,
  SW_MESSAGE,
  SW_PROGRESS_MESSAGE,
  SW_URL,
  type DownloadTarget,
} from '../../model/transfers.ts';
import { SpeedMeter, downloadName, fractionOf } from '../../model/transfer-plan.ts';
import { type BrowseScope, OWN_SCOPE } from '../../model/browse-scope.ts';
import { failureKind, failureText } from '../../model/failure.ts';
import {
  FINISHED,
  addDownloadRow,
  onDownloadCancel,
  resumeWhenOnline,
  rowOf,
  updateRow,
  type DownloadRow,
} from './transfer-store.ts';

/** Why downloads are unavailable (undefined: they are available). */
export const DOWNLOAD_BLOCKED: string | undefined = undefined;

/** How long a first download waits for the service worker to install and activate. */
const ACTIVATION_TIMEOUT_MS = 15_000;

let registering: Promise<ServiceWorkerRegistration> | undefined;
let listening = false;
/**
 * Downloads this page started, by token, to the transfers panel row each drives (the service
 * worker tells every tab about a download's progress, end, failure and cancel).
 */
const started = new Map<string, { key: string; meter: SpeedMeter }>();

export const DOWNLOAD_OFFLINE_TEXT = 'Download stopped: you are offline. It starts again by itself when the connection is back.';

/**
 * docs/product.md "Messages" download error for `error` (a coded error, or `{ code }` from the
 * service worker) in `scope`, told apart as docs/web-files.md "Errors that say what happened" has
 * it: offline, the server, a link or item gone, or data that failed its integrity check.
 */
export function downloadErrorText(error: unknown, isFolder: boolean, scope: BrowseScope, online = navigator.onLine): string {
  const kind = failureKind(error, scope, online);
  if (kind === 'integrity') return isFolder ? MSG_FOLDER_INTEGRITY_FAILED : MSG_INTEGRITY_FAILED;
  if (kind === 'offline') return DOWNLOAD_OFFLINE_TEXT;
  return failureText(kind, error) ?? (isFolder ? MSG_FOLDER_FAILED : MSG_DOWNLOAD_FAILED);
}

/** A download row that failed: said in the panel and a toast, and started again later if only the network was missing. */
function failRow(key: string, message: string): void {
  updateRow(key, { status: 'error', error: message, speed: 0 });
  toast(message, 'error');
  // The same test as the upload rows': offline, nothing else could have failed it.
  if (navigator.onLine) return;
  resumeWhenOnline(key, () => {
    const row = rowOf(key);
    if (row?.kind === 'download') retryDownload(row);
  });
}

/** Registers /sw.js with scope '/' (once per page); later calls share the promise. */
export function registerDownloadWorker(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) return Promise.reject(new Error('Service workers are not available'));
  listenForErrors();
  registering ??= navigator.serviceWorker.register(SW_URL, { scope: '/', updateViaCache: 'none' }).catch((error: unknown) => {
    registering = undefined;
    throw error;
  });
  return registering;
}

/** The active download worker, waiting for a first install to activate. */
async function activeWorker(): Promise<ServiceWorker> {
  const registration = await registerDownloadWorker();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('The download service worker did not activate')), ACTIVATION_TIMEOUT_MS),
  );
  const ready = await Promise.race([navigator.serviceWorker.ready, timeout]);
  const worker = ready.active ?? registration.active;
  if (!worker) throw new Error('No active download service worker');
  return worker;
}

/** The service worker's reports on a download (progress, end, failure) move its panel row. */
function listenForErrors(): void {
  if (listening || !('serviceWorker' in navigator)) return;
  listening = true;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as {
      type?: string;
      code?: string;
      token?: string;
      sent?: number;
      total?: number;
      done?: boolean;
    } | null;
    const mine = data?.token ? started.get(data.token) : undefined;
    if (!data?.token || !mine) return;
    const live = () => {
      const status = rowOf(mine.key)?.status;
      return status !== undefined && !FINISHED.has(status);
    };
    if (data.type === SW_PROGRESS_MESSAGE) {
      const sent = data.sent ?? 0;
      const total = data.total ?? 0;
      if (!live()) return;
      if (data.done) {
        started.delete(data.token);
        onDownloadCancel(mine.key, undefined);
        updateRow(mine.key, { status: 'done', fraction: 1, speed: 0, size: total });
        return;
      }
      updateRow(mine.key, {
        status: 'downloading',
        size: total,
        fraction: fractionOf(sent, total),
        speed: mine.meter.sample(sent, performance.now()),
      });
      return;
    }
    if (data.type === SW_CANCELLED_MESSAGE) {
      started.delete(data.token);
      onDownloadCancel(mine.key, undefined);
      if (live()) updateRow(mine.key, { status: 'cancelled', speed: 0 });
      return;
    }
    if (data.type !== SW_ERROR_MESSAGE) return;
    started.delete(data.token);
    onDownloadCancel(mine.key, undefined);
    if (!live()) return;
    // Once streaming, a file and a zip say the same (docs/product.md "Messages" 'file/folder' text,
    // or the integrity one).
    const row = rowOf(mine.key);
    failRow(mine.key, downloadErrorText({ code: data.code }, false, row?.kind === 'download' ? row.scope : OWN_SCOPE));
  });
}

/**
 * Opens the download by navigating to it: the answer is an attachment (or a 204 on failure), so
 * the page stays. Not `<a download>`: Chromium fetches those without the service worker.
 */
function clickDownload(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

function targetOf(view: Pick<ItemView, 'id' | 'name' | 'isDirectory'>): DownloadTarget {
  return { id: view.id, name: view.name ?? '', isDirectory: view.isDirectory };
}

/**
 * docs/product.md "States" and "Messages": one file downloads as itself; a folder, or several
 * items, as one zip streamed by the service worker. Listed in the transfers panel; errors are shown
 * there and as docs/product.md "Messages" toasts (resolves false then). The items are reached in
 * `scope` (their keys already in that ring of the crypto worker; a link's calls carry its id).
 */
export async function downloadItems(
  views: ReadonlyArray<Pick<ItemView, 'id' | 'name' | 'isDirectory'>>,
  scope: BrowseScope,
): Promise<boolean> {
  if (views.length === 0) return false;
  const targets = views.map(targetOf);
  return runDownload(addDownloadRow(targets, downloadName(views), scope), targets, scope);
}

/** One earlier version of a file (Info's Versions), decrypted as the file is, under the file's name. */
export async function downloadVersion(
  view: Pick<ItemView, 'id' | 'name' | 'isDirectory'>,
  versionId: string,
  scope: BrowseScope,
): Promise<boolean> {
  const target = { ...targetOf(view), versionId };
  return runDownload(addDownloadRow([target], downloadName([view]), scope), [target], scope);
}

/** The panel's Retry of a download: the same row, started again. */
export function retryDownload(row: DownloadRow): void {
  updateRow(row.key, { status: 'preparing', fraction: 0, speed: 0, error: undefined });
  void runDownload(row.key, row.targets, row.scope);
}

async function runDownload(key: string, targets: DownloadTarget[], scope: BrowseScope): Promise<boolean> {
  const isFolder = targets.length > 1 || targets.some((t) => t.isDirectory);
  const fail = (message: string) => {
    onDownloadCancel(key, undefined);
    if (rowOf(key)?.status === 'cancelled') return false;
    failRow(key, message);
    return false;
  };
  let worker: ServiceWorker;
  try {
    worker = await activeWorker();
  } catch {
    // Without the service worker a file would have to be buffered whole: refuse instead.
    return fail(MSG_DOWNLOAD_FAILED);
  }
  const token = crypto.randomUUID();
  const channel = new MessageChannel();
  // Cancelled while preparing: the job is never opened (the service worker drops it unclaimed).
  onDownloadCancel(key, () => {
    started.delete(token);
    worker.postMessage({ type: SW_CANCEL_MESSAGE, token });
  });
  try {
    worker.postMessage({ type: SW_MESSAGE, token }, [channel.port2]);
    const job = await cryptoWorker.call('prepareDownload', scope, targets, channel.port1);
    if (rowOf(key)?.status === 'cancelled') return false;
    updateRow(key, { name: job.name });
  } catch (error) {
    return fail(downloadErrorText(error, isFolder, scope));
  }
  // Kept until the download ends, fails or is cancelled, however long it takes.
  started.set(token, { key, meter: new SpeedMeter() });
  updateRow(key, { status: 'downloading' });
  clickDownload(`${DOWNLOAD_PATH}${token}`);
  return true;
}
