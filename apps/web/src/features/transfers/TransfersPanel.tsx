/**
 * The transfers panel (issue 14, as in Drive): a corner panel listing every upload and download
 * of this tab with its name, size, state, progress and Cancel or Retry, above an overall bar
 * with speed and time left. It collapses to its header, by itself a few seconds after everything
 * succeeded (docs/web-files.md "Feedback"), and closes once nothing runs.
 * docs/product.md "States" upload states and summaries are shown here; the page stays usable
 * meanwhile.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { formatBytes, formatSpeed, formatTimeLeft } from '../../lib/format-size.ts';
import { overallProgress, runningText } from '../../model/transfer-plan.ts';
import { DuplicateNameDialog } from './DuplicateNameDialog.tsx';
import { ignoreStrayFileDrops } from './FileDropZone.tsx';
import { retryDownload } from './download.ts';
import {
  RUNNING,
  cancelTransfer,
  clearTransfers,
  retryTransfer,
  setQueryClient,
  uploadSummary,
  useTransfers,
  type TransferRow,
} from './transfer-store.ts';
import './forget-on-sign-out.ts';
import './transfers.css';

const STATUS_TEXT: Record<TransferRow['status'], string> = {
  queued: 'Waiting...',
  encrypting: 'Encrypting...',
  uploading: 'Uploading...',
  preparing: 'Preparing...',
  downloading: 'Downloading...',
  done: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
};

function statusText(row: TransferRow): string {
  if (row.status === 'error') return row.error || STATUS_TEXT.error;
  if (row.status === 'done') {
    if (row.kind === 'download') return 'Downloaded';
    return row.resumed || row.resumeUploadId ? 'Uploaded (resumed)' : 'Uploaded';
  }
  return STATUS_TEXT[row.status];
}

const busy = (row: TransferRow) => row.status === 'queued' || RUNNING.has(row.status);

/** The header while something runs: what is going on, uploads and downloads apart. */
function runningTitle(rows: readonly TransferRow[]): string {
  const count = (kind: TransferRow['kind']) => rows.filter((r) => r.kind === kind && busy(r)).length;
  return runningText(count('upload'), count('download'));
}

/**
 * The title once nothing runs and docs/product.md "States" has no upload summary for it (downloads,
 * cancels).
 */
export function idleTitle(rows: readonly Pick<TransferRow, 'status'>[]): string {
  if (rows.every((r) => r.status === 'cancelled')) return 'Transfers cancelled';
  if (rows.some((r) => r.status === 'error')) return 'Some transfers failed';
  return 'Transfers finished';
}

function RetryIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function CrossIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
    </svg>
  );
}

function ChevronIcon({ up }: { up: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
      <path d={up ? 'M6 15l6-6 6 6' : 'M6 9l6 6 6-6'} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function Row({ row }: { row: TransferRow }) {
  const percent = Math.round(row.fraction * 100);
  const running = RUNNING.has(row.status);
  return (
    <li className={`transfer-row transfer-row--${row.status}`} data-kind={row.kind}>
      <span className="transfer-row__kind" aria-hidden="true">
        {row.kind === 'upload' ? '↑' : '↓'}
      </span>
      <div className="transfer-row__main">
        <div className="transfer-row__top">
          <span className="transfer-row__name" title={row.name}>
            {row.name}
          </span>
          {row.size > 0 && <span className="transfer-row__size">{formatBytes(row.size)}</span>}
        </div>
        <progress className="transfer-row__bar" max={100} value={percent} aria-label={`${row.name} progress`} />
        <div className="transfer-row__status">
          <span className="transfer-row__state" role={row.status === 'error' ? 'alert' : undefined}>
            {statusText(row)}
          </span>
          {running && (
            <span className="transfer-row__numbers">
              {percent}%{row.speed > 0 ? ` · ${formatSpeed(row.speed)}` : ''}
            </span>
          )}
        </div>
      </div>
      {busy(row) ? (
        <button
          type="button"
          className="sb-icon-button transfer-row__action"
          aria-label={`Cancel ${row.name}`}
          title="Cancel"
          onClick={() => cancelTransfer(row.key)}
        >
          <CrossIcon />
        </button>
      ) : (row.status === 'error' && !row.noRetry) || row.status === 'cancelled' ? (
        <button
          type="button"
          className="sb-icon-button transfer-row__action"
          aria-label={`Retry ${row.name}`}
          title="Retry"
          onClick={() => retryTransfer(row.key, retryDownload)}
        >
          <RetryIcon />
        </button>
      ) : null}
    </li>
  );
}

/**
 * Toasts (docs/product.md "Messages": bottom right) stack just above the panel rather than over it: the panel's
 * height goes into a CSS variable the toaster's offset reads (transfers.css).
 */
function liftToasts(panel: HTMLElement | null): (() => void) | undefined {
  if (!panel) return;
  const root = document.documentElement;
  // The panel's height and a gap of 8 px.
  const observer = new ResizeObserver(() => root.style.setProperty('--sb-transfers-height', `${panel.offsetHeight + 8}px`));
  observer.observe(panel);
  return () => {
    observer.disconnect();
    root.style.removeProperty('--sb-transfers-height');
  };
}

/** How long a batch that all succeeded stays open before the panel folds to its header. */
export const FOLD_AFTER_MS = 4000;

/**
 * The panel's collapsed state: folded by itself FOLD_AFTER_MS after every row succeeded (never
 * after a failure or a cancel, which are there to be read), and opened again when the next
 * transfer starts if it was folded that way. A panel opened by hand stays open.
 */
function useCollapsed(rows: readonly TransferRow[], anyBusy: boolean) {
  const [collapsed, setCollapsed] = useState(false);
  const folded = useRef(false);
  const succeeded = !anyBusy && rows.length > 0 && rows.every((r) => r.status === 'done');
  // The batch's rows: a new one that succeeds folds again, the same one re-opened does not.
  const batch = succeeded ? rows.map((r) => r.key).join(' ') : '';
  useEffect(() => {
    if (!batch) return;
    const timer = setTimeout(() => {
      folded.current = true;
      setCollapsed(true);
    }, FOLD_AFTER_MS);
    return () => clearTimeout(timer);
  }, [batch]);
  useEffect(() => {
    if (anyBusy && folded.current) {
      folded.current = false;
      setCollapsed(false);
    }
  }, [anyBusy]);
  const set = (next: boolean) => {
    folded.current = false;
    setCollapsed(next);
  };
  return [collapsed, set] as const;
}

export function TransfersPanel() {
  const { rows } = useTransfers();
  const anyBusy = rows.some(busy);
  const [collapsed, setCollapsed] = useCollapsed(rows, anyBusy);
  const listId = useId();
  if (rows.length === 0) return null;

  const overall = overallProgress(
    rows.map((r) => ({
      size: r.size,
      fraction: r.fraction,
      speed: r.speed,
      state: busy(r) ? 'running' : r.status === 'done' ? 'done' : 'stopped',
    })),
  );
  const summary = uploadSummary(rows);
  const failed = rows.some((r) => r.status === 'error');
  // Neutral while something runs with nothing to sum up yet, whatever an earlier row did.
  const tone =
    anyBusy && !summary
      ? 'neutral'
      : failed
        ? rows.some((r) => r.status === 'done')
          ? 'mixed'
          : 'error'
        : summary
          ? 'success'
          : 'neutral';
  const title = anyBusy ? runningTitle(rows) : (summary ?? idleTitle(rows));
  const left = formatTimeLeft(overall.secondsLeft);
  const percent = Math.round(overall.fraction * 100);

  return (
    <section className={`transfers${collapsed ? ' transfers--collapsed' : ''}`} aria-label="Transfers" ref={liftToasts}>
      <header className="transfers__header">
        <h2 className={`transfers__title transfers__title--${tone}`} role="status">
          {title}
        </h2>
        <button
          type="button"
          className="sb-icon-button transfers__button"
          aria-expanded={!collapsed}
          aria-controls={listId}
          aria-label={collapsed ? 'Expand transfers' : 'Collapse transfers'}
          title={collapsed ? 'Expand' : 'Collapse'}
          onClick={() => setCollapsed(!collapsed)}
        >
          <ChevronIcon up={collapsed} />
        </button>
        {!anyBusy && (
          <button
            type="button"
            className="sb-icon-button transfers__button"
            aria-label="Close transfers"
            title="Close"
            onClick={() => {
              clearTransfers();
              setCollapsed(false);
            }}
          >
            <CrossIcon />
          </button>
        )}
      </header>
      <div className="transfers__overall">
        <progress className="transfers__bar" max={100} value={percent} aria-label="Overall progress" />
        {anyBusy && (
          <p className="transfers__numbers">
            {percent}%{overall.speed > 0 ? ` · ${formatSpeed(overall.speed)}` : ''}
            {left ? ` · ${left} left` : ''}
          </p>
        )}
      </div>
      <ul id={listId} className="transfers__rows" aria-label="Transfers list" hidden={collapsed}>
        {rows.map((row) => (
          <Row key={row.key} row={row} />
        ))}
      </ul>
    </section>
  );
}

/**
 * Mounted once at the app's root: the panel, the duplicate-name question, the query cache
 * uploads refresh, and the guard against files dropped outside a drop zone.
 */
export function TransfersHost() {
  const client = useQueryClient();
  useEffect(() => setQueryClient(client), [client]);
  useEffect(ignoreStrayFileDrops, []);
  return (
    <>
      <TransfersPanel />
      <DuplicateNameDialog />
    </>
  );
}
