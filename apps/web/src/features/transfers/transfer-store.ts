/**
 * Every transfer of this tab, uploads and downloads, as rows of the transfers panel. It lives
 * outside React so transfers go on whatever screen is open. The crypto worker does the uploads
 * (each with its own MessageChannel for progress and cancel); the download service worker
 * reports a download's progress by message (download.ts).
 */
import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import { PROFILE_QUERY_KEY, profileQuery } from '../auth/index.ts';
import { filesKeys, freeName, versionsKeys } from '../items/index.ts';
import { MSG_NO_SPACE, MSG_TOO_LARGE, SpeedMeter, fractionOf, noSpaceText, summaryText } from '../../model/transfer-plan.ts';
import type { DownloadTarget, UploadEvent } from '../../model/transfers.ts';
import type { BrowseScope } from '../../model/browse-scope.ts';

export type TransferStatus = 'queued' | 'encrypting' | 'uploading' | 'preparing' | 'downloading' | 'done' | 'error' | 'cancelled';

interface RowBase {
  key: string;
  /** The name shown (and, for an upload, the name it is stored under). */
  name: string;
  /** Plaintext bytes (0 while a download's size is not known yet). */
  size: number;
  status: TransferStatus;
  /** 0..1 */
  fraction: number;
  /** Bytes per second (sliding window). */
  speed: number;
  error?: string;
  /** The error is one a Retry cannot mend while nothing changes (over quota): none is offered. */
  noRetry?: boolean;
}

export interface UploadRow extends RowBase {
  kind: 'upload';
  file: File;
  parentId: string | null;
  /** Where the folder is browsed (through a share link: an editor link). */
  scope: BrowseScope;
  /** Continues this unfinished upload (after a reload, or a retry after a network failure). */
  resumeUploadId?: string;
  /**
   * A new version of this file ("Replace", "Upload new version"): its id, name, shares and links
   * stay, and the content it had is kept as an earlier version (docs/protocol.md "Versions").
   */
  versionOf?: string;
  uploadId?: string;
  itemId?: string;
  resumed?: boolean;
}

export interface DownloadRow extends RowBase {
  kind: 'download';
  targets: DownloadTarget[];
  scope: BrowseScope;
  /** The service worker's job token, once the download is under way. */
  token?: string;
}

export type TransferRow = UploadRow | DownloadRow;

export interface TransfersState {
  rows: TransferRow[];
}

/** Files uploaded at once (each sends up to 3 parts at a time). */
export const FILES_AT_ONCE = 2;

export const RUNNING: ReadonlySet<TransferStatus> = new Set(['encrypting', 'uploading', 'preparing', 'downloading']);
export const FINISHED: ReadonlySet<TransferStatus> = new Set(['done', 'error', 'cancelled']);

let state: TransfersState = { rows: [] };
const listeners = new Set<() => void>();
let nextKey = 1;
let pumping = false;
let queryClient: QueryClient | undefined;
/** Progress ports of running uploads, by row key: posting `cancel` on one stops that upload. */
const ports = new Map<string, MessagePort>();
/** How a download row is cancelled, by row key (download.ts registers it). */
const downloadCancels = new Map<string, () => void>();

function emit(next: TransfersState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function updateRow(key: string, patch: Partial<UploadRow> | Partial<DownloadRow>): void {
  emit({ rows: state.rows.map((row) => (row.key === key ? ({ ...row, ...patch } as TransferRow) : row)) });
}

export function rowOf(key: string): TransferRow | undefined {
  return state.rows.find((r) => r.key === key);
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getState(): TransfersState {
  return state;
}

export function useTransfers(): TransfersState {
  return useSyncExternalStore(subscribe, getState, getState);
}

/** The query cache to refresh after an upload (the panel, mounted once, hands it over). */
export function setQueryClient(client: QueryClient): void {
  queryClient = client;
}

export interface UploadPlan {
  file: File;
  /** Stored under this name (a free one for "keep both"); the file's own otherwise. */
  name?: string;
  /** Upload it as a new version of this file (stored under that file's name, `name`). */
  versionOf?: string;
  resumeUploadId?: string;
}

/** Starts uploading `plans` into `parentId`, as browsed in `scope`, at once. */
export function startUploads(plans: ReadonlyArray<UploadPlan>, parentId: string | null, scope: BrowseScope): void {
  const added: UploadRow[] = plans.map((plan) => ({
    kind: 'upload',
    key: String(nextKey++),
    name: plan.name ?? plan.file.name,
    size: plan.file.size,
    file: plan.file,
    parentId,
    status: 'queued',
    fraction: 0,
    speed: 0,
    scope,
    ...(plan.versionOf ? { versionOf: plan.versionOf } : {}),
    ...(plan.resumeUploadId ? { resumeUploadId: plan.resumeUploadId } : {}),
  }));
  emit({ rows: [...state.rows, ...added] });
  void pump();
}

/**
 * "Upload new version" of `item` (its menu): `file` becomes its newest content, shown in the
 * panel under the item's name like any upload.
 */
export function uploadNewVersion(
  file: File,
  item: { id: string; name: string; parentId: string | null },
  scope: BrowseScope,
): void {
  startUploads([{ file, name: item.name, versionOf: item.id }], item.parentId, scope);
}

/** Adds a download row (download.ts drives it). */
export function addDownloadRow(targets: DownloadTarget[], name: string, scope: BrowseScope): string {
  const key = String(nextKey++);
  const row: DownloadRow = {
    kind: 'download',
    key,
    name,
    size: 0,
    targets,
    status: 'preparing',
    fraction: 0,
    speed: 0,
    scope,
  };
  emit({ rows: [...state.rows, row] });
  return key;
}

export function onDownloadCancel(key: string, cancel: (() => void) | undefined): void {
  if (cancel) downloadCancels.set(key, cancel);
  else downloadCancels.delete(key);
}

/** Transfers stopped because the browser went offline, each with how to run it again. */
const waitingForNetwork = new Map<string, () => void>();
let watchingNetwork = false;

/**
 * Runs `resume` for the failed transfer `key` once the browser is back online (docs/web-files.md
 * "Errors that say what happened"), unless it was retried, cancelled or cleared meanwhile.
 */
export function resumeWhenOnline(key: string, resume: () => void): void {
  waitingForNetwork.set(key, resume);
  if (watchingNetwork) return;
  watchingNetwork = true;
  window.addEventListener('online', () => {
    const waiting = [...waitingForNetwork];
    waitingForNetwork.clear();
    for (const [waitingKey, run] of waiting) if (rowOf(waitingKey)?.status === 'error') run();
  });
}

export const UPLOAD_OFFLINE_TEXT = 'Upload stopped: you are offline. It goes on by itself when the connection is back.';

/** Stops a running or waiting transfer; it stays listed as cancelled, to retry. */
export function cancelTransfer(key: string): void {
  const row = rowOf(key);
  if (!row || FINISHED.has(row.status)) return;
  if (row.kind === 'upload') ports.get(key)?.postMessage({ type: 'cancel' });
  else downloadCancels.get(key)?.();
  updateRow(key, { status: 'cancelled', speed: 0 });
}

/**
 * Runs a failed or cancelled transfer again. An upload that failed part-way (not cancelled)
 * continues its unfinished upload: only the parts the server lacks are sent.
 */
export function retryTransfer(key: string, retryDownload: (row: DownloadRow) => void): void {
  const row = rowOf(key);
  if (!row || (row.status !== 'error' && row.status !== 'cancelled')) return;
  if (row.kind === 'download') {
    retryDownload(row);
    return;
  }
  const resume = row.status === 'error' ? (row.uploadId ?? row.resumeUploadId) : undefined;
  const { error: _error, noRetry: _noRetry, uploadId: _uploadId, itemId: _itemId, resumeUploadId: _resume, ...rest } = row;
  // A cancelled row held no name: another upload may have taken it meanwhile (then keep both).
  // A failed one part-way keeps its name, since its unfinished upload continues under it, and a
  // new version always has its file's name (it makes no new item).
  const name = resume || row.versionOf ? row.name : freeName(row.name, namesTakenByUploads(row.parentId, key));
  emit({
    rows: state.rows.map((r) =>
      r.key === key
        ? { ...rest, name, status: 'queued', fraction: 0, speed: 0, ...(resume ? { resumeUploadId: resume } : {}) }
        : r,
    ),
  });
  void pump();
}

/** Closes the panel: forgets every finished row (only offered once nothing runs). */
export function clearTransfers(): void {
  emit({ rows: state.rows.filter((r) => !FINISHED.has(r.status)) });
}

/**
 * docs/product.md "States" summary of the uploads listed, once none is waiting or running. A
 * cancelled upload is the user's choice, not a failure: it is left out of the counts.
 */
export function uploadSummary(rows: readonly TransferRow[]): string | undefined {
  const uploads = rows.filter((r) => r.kind === 'upload' && r.status !== 'cancelled');
  if (uploads.some((r) => !FINISHED.has(r.status))) return undefined;
  return summaryText(uploads.filter((r) => r.status === 'done').length, uploads.filter((r) => r.status === 'error').length);
}

/** Names that uploads under way will take in a folder (not listed yet, but not free either). */
export function namesBeingUploaded(parentId: string | null): string[] {
  return state.rows
    .filter((r): r is UploadRow => r.kind === 'upload' && r.parentId === parentId && !FINISHED.has(r.status))
    .map((r) => r.name);
}

/** Names taken in a folder by this tab's other uploads, under way or stored (not `except`). */
function namesTakenByUploads(parentId: string | null, except: string): string[] {
  return state.rows
    .filter(
      (r): r is UploadRow =>
        r.kind === 'upload' && r.key !== except && r.parentId === parentId && (r.status === 'done' || !FINISHED.has(r.status)),
    )
    .map((r) => r.name);
}

/** Wakes a pump waiting on running uploads: new rows were queued meanwhile. */
let wake: (() => void) | undefined;

async function pump(): Promise<void> {
  if (pumping) {
    wake?.();
    return;
  }
  pumping = true;
  try {
    const active = new Set<Promise<void>>();
    for (;;) {
      const next = state.rows.find((r): r is UploadRow => r.kind === 'upload' && r.status === 'queued');
      if (!next || active.size >= FILES_AT_ONCE) {
        if (active.size === 0) break;
        // A file dropped while one runs alone starts beside it, not after it.
        await Promise.race([...active, new Promise<void>((resolve) => (wake = resolve))]);
        wake = undefined;
        continue;
      }
      updateRow(next.key, { status: 'encrypting' });
      const task: Promise<void> = runUpload(next).finally(() => active.delete(task));
      active.add(task);
    }
  } finally {
    pumping = false;
  }
}

const shownToasts = new Map<string, number>();
/** One toast per kind of failure (`key`) in 3 s, however many files meet it. */
function toastOnce(key: string, text = key): void {
  const now = Date.now();
  if ((shownToasts.get(key) ?? 0) > now - 3000) return;
  shownToasts.set(key, now);
  toast(text, 'error');
}

/** Whether the row was cancelled meanwhile (its late events and result are then ignored). */
const stopped = (key: string) => {
  const status = rowOf(key)?.status;
  return status === undefined || FINISHED.has(status);
};

async function runUpload(row: UploadRow): Promise<void> {
  const channel = new MessageChannel();
  const meter = new SpeedMeter();
  ports.set(row.key, channel.port1);
  channel.port1.onmessage = (event: MessageEvent) => {
    const data = event.data as UploadEvent;
    if (stopped(row.key)) return;
    if (data.type === 'started') {
      updateRow(row.key, { uploadId: data.uploadId, itemId: data.id });
      return;
    }
    updateRow(row.key, {
      status: data.phase,
      fraction: data.phase === 'encrypting' ? fractionOf(data.encrypted, data.plainSize) : fractionOf(data.sent, data.cipherSize),
      speed: meter.sample(data.sent, performance.now()),
    });
  };
  try {
    const result = await cryptoWorker.call(
      'uploadFile',
      {
        file: row.file,
        parentId: row.parentId,
        ...(row.name !== row.file.name ? { name: row.name } : {}),
        ...(row.resumeUploadId ? { resumeUploadId: row.resumeUploadId } : {}),
        ...(row.versionOf ? { versionOf: row.versionOf } : {}),
        scope: row.scope,
      },
      channel.port2,
    );
    if (row.versionOf) void queryClient?.invalidateQueries({ queryKey: versionsKeys.of(row.versionOf) });
    // Done once the listing shows it: until then its name must still count as taken for the
    // next drop (namesBeingUploaded), and the summary should not run ahead of the listing.
    await refreshAfterUpload(row.parentId, row.scope).catch(() => undefined);
    // Even after a Cancel that came too late: the file is stored, and the row says so.
    updateRow(row.key, { status: 'done', fraction: 1, speed: 0, itemId: result.id, resumed: result.resumed });
  } catch (error) {
    if (stopped(row.key)) return;
    const message = error instanceof Error ? error.message : String(error);
    if (message === MSG_NO_SPACE) {
      // The same file into the same space is refused again: say by how much, offer no Retry.
      const space = await freshProfile();
      if (stopped(row.key)) return;
      const text = noSpaceText(space, row.size);
      updateRow(row.key, { status: 'error', error: text, noRetry: true, speed: 0 });
      toastOnce(MSG_NO_SPACE, text);
    } else if (!navigator.onLine) {
      // Offline: it continues where it stopped (only the parts the server lacks) once back.
      updateRow(row.key, { status: 'error', error: UPLOAD_OFFLINE_TEXT, speed: 0 });
      resumeWhenOnline(row.key, () => retryTransfer(row.key, () => undefined));
    } else updateRow(row.key, { status: 'error', error: message, speed: 0 });
    if (message === MSG_TOO_LARGE) toastOnce(message);
  } finally {
    ports.delete(row.key);
    channel.port1.close();
  }
}

/** The profile as the server has it now (its space), or null when it cannot be had. */
async function freshProfile() {
  return (await queryClient?.fetchQuery({ ...profileQuery, staleTime: 0 }).catch(() => null)) ?? null;
}

async function refreshAfterUpload(parentId: string | null, scope: BrowseScope): Promise<void> {
  const client = queryClient;
  if (!client) return;
  if (scope.kind === 'link') {
    await client.invalidateQueries({ queryKey: filesKeys.linkAll(scope.linkId) });
    return;
  }
  await Promise.all([
    client.invalidateQueries({ queryKey: filesKeys.folder(scope, parentId), exact: true }),
    client.invalidateQueries({ queryKey: filesKeys.tree(scope), exact: true }),
    // usedSpace changed.
    client.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
  ]);
}

/** Test hook: back to an empty store. */
export function resetTransfers(): void {
  emit({ rows: [] });
}
