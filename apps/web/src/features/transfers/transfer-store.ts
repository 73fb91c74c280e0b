/**
 * Upload rows of this tab (outside React, so uploads go on while the overlay is closed). The
 * crypto worker does the work; each upload gets its own MessageChannel for progress events.
 */
import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { filesKeys } from '../files/index.ts';
import { MSG_NO_SPACE, MSG_TOO_LARGE, SpeedMeter, summaryText } from '../../model/transfer-plan.ts';
import type { UploadEvent } from '../../model/transfers.ts';

export type RowStatus = 'queued' | 'encrypting' | 'uploading' | 'done' | 'error';

export interface UploadRow {
  key: string;
  file: File;
  parentId: string | null;
  status: RowStatus;
  /** Plaintext bytes encrypted, ciphertext bytes confirmed by the server. */
  encrypted: number;
  sent: number;
  cipherSize: number;
  /** Bytes per second sent (sliding window). */
  speed: number;
  error?: string;
  /** Set when this row continues an unfinished upload. */
  resumeUploadId?: string;
  /** Set when the upload goes through a share link (an editor link). */
  linkId?: string;
  /** Which press of Upload this row belongs to (summaries are per batch). */
  batch: number;
  uploadId?: string;
  itemId?: string;
  resumed?: boolean;
  partsSent?: number;
}

interface State {
  rows: UploadRow[];
  batch: number;
  /** The batch whose summary was put away because new files were picked after it. */
  dismissed?: number;
}

/** Files uploaded at once (each sends up to 3 parts at a time). */
export const FILES_AT_ONCE = 2;

let state: State = { rows: [], batch: 0 };
const listeners = new Set<() => void>();
let nextKey = 1;
let pumping = false;
let queryClient: QueryClient | undefined;

function emit(next: State): void {
  state = next;
  for (const listener of listeners) listener();
}

function update(key: string, patch: Partial<UploadRow>): void {
  emit({ ...state, rows: state.rows.map((row) => (row.key === key ? { ...row, ...patch } : row)) });
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getState(): State {
  return state;
}

export function useUploads(): State {
  return useSyncExternalStore(subscribe, getState, getState);
}

/** Adds picked files as queued rows (not started until `startQueued`). */
export function addFiles(files: Iterable<File>, parentId: string | null, resumeUploadId?: string, linkId?: string): void {
  const added: UploadRow[] = [];
  for (const file of files) {
    added.push({
      key: String(nextKey++),
      file,
      parentId,
      status: 'queued',
      encrypted: 0,
      sent: 0,
      cipherSize: 0,
      speed: 0,
      batch: -1,
      ...(resumeUploadId ? { resumeUploadId } : {}),
      ...(linkId ? { linkId } : {}),
    });
  }
  // A new pick starts a new list: the last batch's summary no longer describes what is shown.
  emit({ ...state, rows: [...state.rows, ...added], dismissed: state.batch });
}

export function removeRow(key: string): void {
  const row = state.rows.find((r) => r.key === key);
  if (!row) return;
  if (row.itemId && (row.status === 'encrypting' || row.status === 'uploading'))
    void cryptoWorker.call('cancelUpload', row.itemId);
  emit({ ...state, rows: state.rows.filter((r) => r.key !== key) });
}

/** Drops finished rows (the overlay's "Clear"). */
export function clearFinished(): void {
  emit({ ...state, rows: state.rows.filter((r) => r.status !== 'done' && r.status !== 'error') });
}

export function queuedCount(): number {
  return state.rows.filter((r) => r.status === 'queued' && r.batch === -1).length;
}

/** Starts every queued row as a new batch. */
export function startQueued(client: QueryClient): number {
  queryClient = client;
  const batch = state.batch + 1;
  let count = 0;
  emit({
    ...state,
    batch,
    rows: state.rows.map((row) => {
      if (row.status !== 'queued' || row.batch !== -1) return row;
      count++;
      return { ...row, batch };
    }),
  });
  void pump();
  return count;
}

/** SPEC 4's summary for the latest batch, once every row of it has finished. */
export function batchSummary(current: State): string | undefined {
  if (current.dismissed === current.batch) return undefined;
  const rows = current.rows.filter((r) => r.batch === current.batch && current.batch > 0);
  if (rows.length === 0 || rows.some((r) => r.status !== 'done' && r.status !== 'error')) return undefined;
  return summaryText(rows.filter((r) => r.status === 'done').length, rows.filter((r) => r.status === 'error').length);
}

async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    const active = new Set<Promise<void>>();
    for (;;) {
      const next = state.rows.find((r) => r.status === 'queued' && r.batch > 0);
      if (!next) {
        if (active.size === 0) break;
        await Promise.race(active);
        continue;
      }
      if (active.size >= FILES_AT_ONCE) {
        await Promise.race(active);
        continue;
      }
      update(next.key, { status: 'encrypting' });
      const task: Promise<void> = runOne(next).finally(() => active.delete(task));
      active.add(task);
    }
  } finally {
    pumping = false;
  }
}

const shownToasts = new Map<string, number>();
function toastOnce(message: string): void {
  const now = Date.now();
  if ((shownToasts.get(message) ?? 0) > now - 3000) return;
  shownToasts.set(message, now);
  toast(message, 'error');
}

async function runOne(row: UploadRow): Promise<void> {
  const channel = new MessageChannel();
  const meter = new SpeedMeter();
  channel.port1.onmessage = (event: MessageEvent) => {
    const data = event.data as UploadEvent;
    if (data.type === 'started') {
      update(row.key, { uploadId: data.uploadId, itemId: data.id });
      return;
    }
    const current = state.rows.find((r) => r.key === row.key);
    if (!current || current.status === 'done' || current.status === 'error') return;
    update(row.key, {
      status: data.phase,
      encrypted: data.encrypted,
      sent: data.sent,
      cipherSize: data.cipherSize,
      speed: meter.sample(data.sent, performance.now()),
    });
  };
  try {
    const result = await cryptoWorker.call(
      'uploadFile',
      {
        file: row.file,
        parentId: row.parentId,
        ...(row.resumeUploadId ? { resumeUploadId: row.resumeUploadId } : {}),
        ...(row.linkId ? { linkId: row.linkId } : {}),
      },
      channel.port2,
    );
    const current = state.rows.find((r) => r.key === row.key);
    update(row.key, {
      status: 'done',
      sent: current?.cipherSize || result.size,
      cipherSize: current?.cipherSize || result.size,
      itemId: result.id,
      resumed: result.resumed,
      partsSent: result.partsSent,
    });
    await refreshAfterUpload(row.parentId, row.linkId);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    update(row.key, { status: 'error', error: message });
    if (message === MSG_NO_SPACE || message === MSG_TOO_LARGE) toastOnce(message);
  } finally {
    channel.port1.close();
  }
}

async function refreshAfterUpload(parentId: string | null, linkId: string | undefined): Promise<void> {
  const client = queryClient;
  if (!client) return;
  if (linkId) {
    await client.invalidateQueries({ queryKey: filesKeys.linkAll(linkId) });
    return;
  }
  await Promise.all([
    client.invalidateQueries({ queryKey: filesKeys.folder(parentId), exact: true }),
    client.invalidateQueries({ queryKey: filesKeys.tree, exact: true }),
    // usedSpace changed.
    client.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
  ]);
}

/** Test hook: back to an empty store. */
export function resetUploads(): void {
  emit({ rows: [], batch: 0 });
}
