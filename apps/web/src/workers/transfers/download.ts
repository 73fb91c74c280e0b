/**
 * Download, prepared inside the crypto worker: it gathers what the service worker needs (item
 * keys, nonces, sizes, the paths of a folder's descendants) and posts it on a MessagePort whose
 * other end the page gave the service worker. Key bytes go worker -> service worker and never
 * through the page's state.
 */
import { fromBase64, plaintextSize } from '@sealbox/crypto';
import type { BrowseScope } from '../../model/browse-scope.ts';
import type { ServerItem } from '../../model/items.ts';
import { displayName } from '../../model/item-names.ts';
import { downloadName, safeSegment, uniqueName } from '../../model/transfer-plan.ts';
import { type DownloadEntry, type DownloadJob, type DownloadTarget, jobTransfers, wipeJob } from '../../model/transfers.ts';
import { ZipColumnsBuilder } from '../../model/zip-columns.ts';
import { openItems } from '../items.ts';
import { itemKey } from '../key-rings.ts';
import { getListing } from '../listing-fetch.ts';
import { TransferError, transferError } from './errors.ts';
import { versionContent } from './versions.ts';

/** docs/product.md "Limits": a folder download gathers descendants to depth 20, 1000 per request. */
export const FOLDER_DEPTH = 20;
export const FOLDER_PAGE = 1000;

/**
 * Thrown when the listing fetched for a download does not open the item: its key did not unwrap
 * under its parent in that same listing, or its name did not decrypt. The server's answer was
 * altered (or the item was planted), so nothing is downloaded, whatever key this worker held before.
 */
export const NOT_VERIFIED = 'NOT_VERIFIED';

/**
 * A file entry from `item`, which must be a view the listing just fetched opened (`opened`):
 * the key, nonce and size all come from that one listing, never from one opened earlier.
 */
function fileEntry(scope: BrowseScope, item: ServerItem, path: string, opened: ReadonlySet<string>): DownloadEntry {
  if (!opened.has(item.id)) throw new TransferError(NOT_VERIFIED, 'The item did not open in the current listing');
  if (item.fileNonce === null) throw new TransferError('BAD_ITEM', 'File nonce not found');
  return {
    kind: 'file',
    path,
    id: item.id,
    key: new Uint8Array(itemKey(scope, item.id)),
    fileNonce: fromBase64(item.fileNonce, 'fileNonce'),
    size: plaintextSize(item.size),
  };
}

/** A file entry into the zip's columns; its own key copy is wiped. */
function addFile(out: ZipColumnsBuilder, entry: DownloadEntry): void {
  if (entry.kind !== 'file') return;
  out.addFile(entry.path, entry.id, entry.key, entry.fileNonce, entry.size);
  entry.key.fill(0);
}

/**
 * A folder and everything under it, page by page as the server lists it (breadth first, so a
 * folder comes before what it holds): each page is opened and turned into entries, then dropped,
 * so a folder of 10,000 files holds one page of listing at a time, not the whole of it.
 */
async function gatherFolder(scope: BrowseScope, target: DownloadTarget, rootPath: string, out: ZipColumnsBuilder): Promise<void> {
  // Only folders opened in this gather have a path: a folder it does not open vouches for none
  // of its descendants, whatever key this worker held for it before.
  const pathOf = new Map<string, string>([[target.id, rootPath]]);
  const taken = new Map<string, Set<string>>();
  for (let offset = 0; ; offset += FOLDER_PAGE) {
    const page = await getListing(scope, target.id, FOLDER_DEPTH, FOLDER_PAGE, offset, transferError);
    const { root } = page;
    if (offset === 0 && (!root || root.id !== target.id || !root.isDirectory))
      throw new TransferError('NOT_FOUND', 'Folder not found');
    // The folder itself is opened with the first page, each key under its parent's.
    const views = await openItems(scope, offset === 0 ? [root!, ...page.files] : page.files, { once: true });
    if (offset === 0) {
      if (!views.shift()?.decrypted) throw new TransferError(NOT_VERIFIED, 'The folder did not open in the current listing');
      out.addDir(rootPath);
    }
    // Only items whose key opened under their parent are trusted (a planted one is left out).
    const opened = new Set(views.filter((view) => view.decrypted).map((view) => view.id));
    page.files.forEach((item, i) => {
      const parentPath = item.parentId ? pathOf.get(item.parentId) : undefined;
      if (parentPath === undefined || !opened.has(item.id)) return;
      const siblings = taken.get(parentPath) ?? new Set<string>();
      taken.set(parentPath, siblings);
      const base = safeSegment(displayName({ name: views[i]!.name, isDirectory: item.isDirectory }));
      const path = `${parentPath}/${uniqueName(base, siblings)}`;
      if (item.isDirectory) {
        pathOf.set(item.id, path);
        out.addDir(path);
      } else {
        addFile(out, fileEntry(scope, item, path, opened));
      }
    });
    if (page.files.length < FOLDER_PAGE) break;
  }
}

/**
 * One file as the server lists it now, opened in this listing: its key unwrapped under its
 * parent's key (or the account's root key, or the link's or grant's key it was reached by) and
 * its name decrypted. The nonce and size used are this listing's.
 */
async function openedFile(scope: BrowseScope, target: DownloadTarget, path: string): Promise<DownloadEntry> {
  const { root } = await getListing(scope, target.id, 1, 1, 0, transferError);
  if (!root || root.id !== target.id || root.isDirectory) throw new TransferError('NOT_FOUND', 'File not found');
  const [view] = await openItems(scope, [root]);
  return fileEntry(scope, root, path, new Set(view?.decrypted ? [root.id] : []));
}

/**
 * An earlier version of a file: the file opened in the current listing (its K), and the
 * version's own fileNonce and size as the server lists them, fetched from the version's data URL.
 */
async function openedVersion(scope: BrowseScope, target: DownloadTarget & { versionId: string }, path: string) {
  const file = await openedFile(scope, target, path);
  if (file.kind !== 'file') throw new TransferError('BAD_ITEM', 'Not a file');
  try {
    const version = await versionContent(scope, target.id, target.versionId);
    return { ...file, versionId: target.versionId, fileNonce: version.fileNonce, size: version.size };
  } catch (error) {
    file.key.fill(0);
    throw error;
  }
}

async function buildJob(targets: DownloadTarget[], scope: BrowseScope): Promise<DownloadJob> {
  if (targets.length === 1 && !targets[0]!.isDirectory) {
    const target = targets[0]!;
    const path = downloadName([target]);
    const { versionId } = target;
    const entry = versionId ? await openedVersion(scope, { ...target, versionId }, path) : await openedFile(scope, target, path);
    return { kind: 'file', name: entry.path, entries: [entry], scope };
  }
  const columns = new ZipColumnsBuilder();
  try {
    const top = new Set<string>();
    for (const target of targets) {
      const name = uniqueName(safeSegment(displayName(target)), top);
      if (target.isDirectory) await gatherFolder(scope, target, name, columns);
      else addFile(columns, await openedFile(scope, target, name));
    }
  } catch (error) {
    columns.finish().secrets.fill(0);
    throw error;
  }
  return { kind: 'zip', name: downloadName(targets), columns: columns.finish(), scope };
}

/**
 * Hands the service worker what it needs to stream `targets` to disk: posts the job on `port`
 * (the page gave the other end to the service worker) and resolves once the service worker has
 * it. The keys are copies; a file's is wiped here afterwards, and a zip's columns are transferred,
 * not copied, so none is left here. The items are reached in `scope`: their keys come from its
 * ring, and a link's listing and data calls carry its id.
 */
export async function prepareDownload(
  scope: BrowseScope,
  targets: DownloadTarget[],
  port: MessagePort,
): Promise<{ name: string; kind: 'file' | 'zip' }> {
  let job: DownloadJob | undefined;
  try {
    job = await buildJob(targets, scope);
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new TransferError('SW_TIMEOUT', 'The download helper did not answer')), 10_000);
      port.onmessage = (event: MessageEvent) => {
        if ((event.data as { type?: string })?.type === 'ready') {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    port.postMessage({ type: 'job', job }, jobTransfers(job));
    await ready;
    return { name: job.name, kind: job.kind };
  } finally {
    if (job) wipeJob(job);
    port.close();
  }
}
