/**
 * SPEC 2 "Upload" dialog: drag and drop or Browse Files, per-file status and progress, SPEC 4's
 * summaries and SPEC 5's messages. Unfinished uploads (after a reload) are listed with a way to
 * pick the same file again and continue where they stopped.
 */
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import { useProfile } from '../auth/index.ts';
import { MAX_FILE_SIZE_LABEL, MSG_NO_FILE, MSG_PROFILE_LOADING, formatBytes, formatSpeed } from '../../model/transfer-plan.ts';
import { registerDownloadWorker } from './download.ts';
import type { PendingUpload } from '../../model/transfers.ts';
import {
  addFiles,
  batchSummary,
  clearFinished,
  queuedCount,
  removeRow,
  startQueued,
  useUploads,
  type UploadRow,
} from './upload-store.ts';
import './transfers.css';

export interface UploadOverlayProps {
  parentId: string | null;
  /** Uploads go through this share link (an editor link; the visitor may have no account). */
  linkId?: string | undefined;
  open: boolean;
  onClose(): void;
}

const STATUS_TEXT: Record<UploadRow['status'], string> = {
  queued: 'Ready to upload',
  encrypting: 'Encrypting...',
  uploading: 'Uploading...',
  done: 'Uploaded',
  error: 'Failed',
};

function percentOf(row: UploadRow): number {
  if (row.status === 'done') return 100;
  if (row.status === 'encrypting') return row.file.size > 0 ? Math.min(100, (row.encrypted / row.file.size) * 100) : 0;
  return row.cipherSize > 0 ? Math.min(100, (row.sent / row.cipherSize) * 100) : 0;
}

function Row({ row }: { row: UploadRow }) {
  const running = row.status === 'encrypting' || row.status === 'uploading';
  const percent = Math.round(percentOf(row));
  return (
    <li className={`upload-row upload-row--${row.status}`}>
      <div className="upload-row__top">
        <span className="upload-row__name" title={row.file.name}>
          {row.file.name}
        </span>
        <span className="upload-row__size">{formatBytes(row.file.size)}</span>
        {row.status !== 'done' && (
          <button
            type="button"
            className="upload-row__remove"
            aria-label={running ? `Cancel ${row.file.name}` : `Remove ${row.file.name}`}
            onClick={() => removeRow(row.key)}
          >
            ×
          </button>
        )}
      </div>
      {row.status !== 'queued' && (
        <progress className="upload-row__bar" max={100} value={percent} aria-label={`${row.file.name} progress`} />
      )}
      <div className="upload-row__status">
        <span className="upload-row__state" role={row.status === 'error' ? 'alert' : undefined}>
          {row.status === 'error' ? row.error || STATUS_TEXT.error : STATUS_TEXT[row.status]}
          {row.resumeUploadId && row.status !== 'error' ? ' (resumed)' : ''}
        </span>
        {running && (
          <span className="upload-row__numbers">
            {percent}%{row.status === 'uploading' && row.speed > 0 ? ` · ${formatSpeed(row.speed)}` : ''}
          </span>
        )}
      </div>
    </li>
  );
}

function PendingList({
  pending,
  onResume,
  onDiscard,
}: {
  pending: PendingUpload[];
  onResume(p: PendingUpload, file: File): void;
  onDiscard(p: PendingUpload): void;
}) {
  const inputs = useRef(new Map<string, HTMLInputElement>());
  if (pending.length === 0) return null;
  return (
    <section className="upload-pending" aria-label="Unfinished uploads">
      <h3 className="upload-pending__title">Unfinished uploads</h3>
      <p className="upload-pending__hint">Pick the same file again to continue where it stopped.</p>
      <ul className="upload-pending__list">
        {pending.map((p) => (
          <li key={p.uploadId} className="upload-pending__item">
            <span className="upload-row__name" title={p.name}>
              {p.name}
            </span>
            <span className="upload-row__size">{formatBytes(p.size)}</span>
            <input
              type="file"
              hidden
              aria-hidden="true"
              tabIndex={-1}
              ref={(el) => {
                if (el) inputs.current.set(p.uploadId, el);
                else inputs.current.delete(p.uploadId);
              }}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                if (file) onResume(p, file);
              }}
              data-testid={`resume-input-${p.uploadId}`}
            />
            <span className="upload-pending__actions">
              <Button size="sm" onClick={() => inputs.current.get(p.uploadId)?.click()} aria-label={`Resume ${p.name}`}>
                Resume
              </Button>
              <Button size="sm" variant="ghost" onClick={() => onDiscard(p)} aria-label={`Discard ${p.name}`}>
                Discard
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function UploadOverlay({ parentId, linkId, open, onClose }: UploadOverlayProps) {
  const queryClient = useQueryClient();
  const profile = useProfile();
  const uploads = useUploads();
  const [message, setMessage] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState<PendingUpload[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  // The download service worker installs while the user browses, so a first download need not wait.
  useEffect(() => {
    registerDownloadWorker().catch(() => undefined);
  }, []);

  // Unfinished uploads of this browser that are not running in this tab.
  useEffect(() => {
    // Through a link only that link's unfinished uploads are offered; in My Files none of a link's.
    if (!open) return;
    let cancelled = false;
    cryptoWorker
      .call('pendingUploads', linkId)
      .then((list) => {
        if (!cancelled) setPending(list);
      })
      .catch(() => {
        if (!cancelled) setPending([]);
      });
    return () => {
      cancelled = true;
    };
  }, [open, linkId]);
  const runningIds = new Set(uploads.rows.map((r) => r.uploadId).filter(Boolean));
  const stillPending = pending.filter((p) => !runningIds.has(p.uploadId));

  const pick = (files: FileList | null | undefined) => {
    if (!files || files.length === 0) return;
    setMessage(undefined);
    addFiles(Array.from(files), parentId, undefined, linkId);
  };

  const start = () => {
    if (queuedCount() === 0) {
      setMessage(MSG_NO_FILE);
      return;
    }
    if (!profile && !linkId) {
      setMessage(MSG_PROFILE_LOADING);
      return;
    }
    setMessage(undefined);
    startQueued(queryClient);
  };

  const resume = (p: PendingUpload, file: File) => {
    if (!profile && !linkId) {
      setMessage(MSG_PROFILE_LOADING);
      return;
    }
    setMessage(undefined);
    addFiles([file], p.parentId, p.uploadId, linkId);
    startQueued(queryClient);
    setPending((list) => list.filter((x) => x.uploadId !== p.uploadId));
  };

  const discard = (p: PendingUpload) => {
    setPending((list) => list.filter((x) => x.uploadId !== p.uploadId));
    void cryptoWorker.call('discardUpload', p.uploadId).catch(() => undefined);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    pick(event.dataTransfer?.files);
  };

  const summary = batchSummary(uploads);
  const batchRows = uploads.rows.filter((r) => r.batch === uploads.batch);
  const summaryTone = batchRows.some((r) => r.status === 'error')
    ? batchRows.some((r) => r.status === 'done')
      ? 'mixed'
      : 'error'
    : 'success';
  const hasFinished = uploads.rows.some((r) => r.status === 'done' || r.status === 'error');
  const waitingCount = uploads.rows.filter((r) => r.status === 'queued' && r.batch === -1).length;
  // Nothing to send: Upload is disabled, and SPEC 5's text says why beside it.
  const hint = message ?? (waitingCount === 0 ? MSG_NO_FILE : undefined);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Upload files"
      size="lg"
      className="upload-overlay"
      footer={
        <>
          {hasFinished && (
            <Button variant="ghost" onClick={clearFinished}>
              Clear finished
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={start} disabled={waitingCount === 0} aria-describedby={hint ? hintId : undefined}>
            Upload{waitingCount > 0 ? ` ${waitingCount}` : ''}
          </Button>
        </>
      }
    >
      <div className="upload-overlay__body">
        <PendingList pending={stillPending} onResume={resume} onDiscard={discard} />
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; Browse Files does the same from the keyboard */}
        <div
          className={`upload-drop${dragging ? ' upload-drop--active' : ''}`}
          onDragEnter={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragOver={(event) => {
            event.preventDefault();
            if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
          }}
          onDragLeave={(event) => {
            if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
            setDragging(false);
          }}
          onDrop={onDrop}
          data-testid="upload-drop"
        >
          <svg
            className="upload-drop__icon"
            width="40"
            height="40"
            viewBox="0 0 24 24"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M12 16V4m0 0-4 4m4-4 4 4" />
            <path d="M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
          </svg>
          <p className="upload-drop__text">Drag and drop files here, or</p>
          <Button variant="secondary" onClick={() => input.current?.click()}>
            Browse Files
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Choose files to upload"
            onChange={(event) => {
              pick(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
          <p className="upload-drop__limit">{MAX_FILE_SIZE_LABEL}</p>
          <p className="upload-drop__note">Files are encrypted in your browser before they are sent.</p>
        </div>

        {message ? (
          <p id={hintId} className="upload-overlay__message" role="alert">
            {message}
          </p>
        ) : (
          hint && (
            <p id={hintId} className="upload-overlay__hint">
              {hint}
            </p>
          )
        )}

        {uploads.rows.length > 0 && (
          <ul className="upload-rows" aria-label="Files">
            {uploads.rows.map((row) => (
              <Row key={row.key} row={row} />
            ))}
          </ul>
        )}

        {summary && (
          <p className={`upload-summary upload-summary--${summaryTone}`} role="status">
            {summary}
          </p>
        )}
      </div>
    </Dialog>
  );
}
