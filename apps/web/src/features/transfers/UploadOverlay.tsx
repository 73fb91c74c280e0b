/**
 * docs/product.md "Screens" "Upload" dialog: drag and drop or Browse Files, 'Max File Size: 1GB'
 * and docs/product.md "Input rules" messages. Picked files start uploading at once and the dialog
 * closes: the transfers panel shows their status, progress and docs/product.md "States" summaries.
 * Unfinished uploads (after a reload) are listed with a way to pick the same file again and
 * continue where they stopped.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, CloseDialog } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import { useProfile } from '../auth/index.ts';
import { formatBytes } from '../../lib/format-size.ts';
import { MAX_FILE_SIZE_LABEL, MSG_NO_FILE, MSG_PROFILE_LOADING } from '../../model/transfer-plan.ts';
import { registerDownloadWorker } from './download.ts';
import type { PendingUpload } from '../../model/transfers.ts';
import { startUploads, useTransfers } from './transfer-store.ts';
import { useFileDrag } from './useFileDrag.ts';
import { useUploadInto, type UploadTarget } from './useUploadInto.ts';
import './transfers.css';

export interface UploadOverlayProps extends UploadTarget {
  open: boolean;
  onClose(): void;
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

export function UploadOverlay({ parentId, scope, items, open, onClose }: UploadOverlayProps) {
  const profile = useProfile();
  const transfers = useTransfers();
  const upload = useUploadInto({ parentId, scope, items });
  const [message, setMessage] = useState<string | undefined>();
  const [pending, setPending] = useState<PendingUpload[]>([]);
  const input = useRef<HTMLInputElement>(null);

  // The download service worker installs while the user browses, so a first download need not wait.
  useEffect(() => {
    registerDownloadWorker().catch(() => undefined);
  }, []);

  // Unfinished uploads of this browser that are not running in this tab.
  useEffect(() => {
    // Through a link only that link's unfinished uploads are offered; in My Files none of a link's.
    if (!open) return;
    setMessage(undefined);
    let cancelled = false;
    cryptoWorker
      .call('pendingUploads', scope)
      .then((list) => {
        if (!cancelled) setPending(list);
      })
      .catch(() => {
        if (!cancelled) setPending([]);
      });
    return () => {
      cancelled = true;
    };
  }, [open, scope]);
  const runningIds = new Set(transfers.rows.map((r) => (r.kind === 'upload' ? r.uploadId : undefined)).filter(Boolean));
  const stillPending = pending.filter((p) => !runningIds.has(p.uploadId));

  // The panel takes over from here: the dialog closes once the files are on their way.
  const pick = async (files: ArrayLike<File> | null | undefined) => {
    const problem = await upload(Array.from(files ?? []));
    setMessage(problem);
    if (!problem) onClose();
  };

  const resume = (p: PendingUpload, file: File) => {
    if (!profile && scope.kind !== 'link') {
      setMessage(MSG_PROFILE_LOADING);
      return;
    }
    setPending((list) => list.filter((x) => x.uploadId !== p.uploadId));
    startUploads([{ file, resumeUploadId: p.uploadId }], p.parentId, scope);
    onClose();
  };

  const discard = (p: PendingUpload) => {
    setPending((list) => list.filter((x) => x.uploadId !== p.uploadId));
    void cryptoWorker.call('discardUpload', p.uploadId).catch(() => undefined);
  };

  const { dragging, handlers } = useFileDrag((files) => void pick(files));

  return (
    <CloseDialog open={open} onClose={onClose} title="Upload files" size="lg" className="upload-overlay">
      <div className="upload-overlay__body">
        <PendingList pending={stillPending} onResume={resume} onDiscard={discard} />
        <div className={`upload-drop${dragging ? ' upload-drop--active' : ''}`} {...handlers} data-testid="upload-drop">
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
              const files = Array.from(event.currentTarget.files ?? []);
              event.currentTarget.value = '';
              void pick(files);
            }}
          />
          <p className="upload-drop__limit">{MAX_FILE_SIZE_LABEL}</p>
          <p className="upload-drop__note">Files are encrypted in your browser before they are sent.</p>
        </div>

        {/* docs/product.md "Input rules": why nothing went up yet (no file picked, or the profile still loading). */}
        {message ? (
          <p className="upload-overlay__message" role="alert">
            {message}
          </p>
        ) : (
          <p className="upload-overlay__hint">{MSG_NO_FILE}</p>
        )}
      </div>
    </CloseDialog>
  );
}
