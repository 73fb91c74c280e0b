/**
 * docs/product.md "Screens" Previewer (full screen): a modal <dialog> (the page behind it is inert,
 * so focus stays inside; Escape closes), titled with the file's name or 'Encrypted File', showing
 * the view of the file's type (each loaded on demand, so the pdf and Word code stays out of the
 * main bundle), 'Unsupported File Type' for anything else, or a docs/product.md "Messages" error in
 * place of the view. A download button once the decrypted file is available; previous/next (buttons
 * and arrow keys, which a view may claim: video seeks with them) when the list it was opened from
 * allows.
 */
import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Spinner, StrokeIcon, cx, toast } from '@sealbox/ui';
import { OFFLINE_TEXT } from '../../model/failure.ts';
import { downloadItems, downloadVersion } from '../transfers/index.ts';
import { ENCRYPTED_FILE } from '../../model/item-names.ts';
import { PreviewCache } from './cache.ts';
import { canCycle } from './cycle.ts';
import { unsupportedText } from './detect.ts';
import { PreviewFailure, kindOfSource, loadBlob, loadHead, previewFileOf, sourceKey, type PreviewSource } from './source.ts';
import { streamUrlFor } from './stream.ts';
import { PREVIEW_ERRORS, type PreviewKind, type RendererProps } from './types.ts';
import { PreviewMessage } from './PreviewMessage.tsx';
import { VIEW_FAILED, ViewBoundary, useView } from './views.tsx';
import './preview.css';

interface PreviewStatus {
  key: string;
  error: string | null;
  /** The error may pass by itself (offline, the server): Try again and Download stay offered. */
  passing: boolean;
  available: boolean;
}
const NOTHING_YET = { error: null, passing: false, available: false } as const;

/**
 * A failure as the shell shows it: a PreviewFailure says whether it may pass; a view's own text
 * (a media element cannot say why it failed) is taken to be the connection's fault while offline.
 */
function failureOf(error: unknown): { error: string; passing: boolean } {
  if (error instanceof PreviewFailure) return { error: error.message, passing: error.passing };
  if (!navigator.onLine) return { error: OFFLINE_TEXT, passing: true };
  return { error: error instanceof Error ? error.message : PREVIEW_ERRORS.decrypt, passing: false };
}

export interface PreviewerProps {
  source: PreviewSource;
  onClose: () => void;
  /** Where the file sits in the list it was opened from (previous/next need it). */
  index?: number | undefined;
  /** How many items that list holds. */
  count?: number | undefined;
  /** Opened from search results (no cycling). */
  fromSearch?: boolean | undefined;
  /** Moves to the previous (-1) or next (1) file of the list. */
  onCycle?: ((step: 1 | -1) => void) | undefined;
  /** A line under the title: which earlier version is shown (Info's Versions). */
  subtitle?: string | undefined;
}

const svg = (path: ReactNode) => <StrokeIcon>{path}</StrokeIcon>;
const ICONS = {
  close: svg(<path d="M6 6l12 12M18 6 6 18" />),
  download: svg(<path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 19h14" />),
  prev: svg(<path d="m15 5-7 7 7 7" />),
  next: svg(<path d="m9 5 7 7-7 7" />),
};

/** Keys typed into a field (the pdf page number) are the field's, not the previewer's. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the last control goes to the first, Shift+Tab from the first to the last: a modal
 * <dialog> makes the page inert, but the browser would still move focus out to its own UI.
 */
function trapFocus(event: KeyboardEvent<HTMLDialogElement>): void {
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.getClientRects().length > 0,
  );
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/** An <a download> of the local file, typed as an attachment (never opened as a page). */
function LocalDownload({ file }: { file: File }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([file], { type: 'application/octet-stream' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  if (!url) return null;
  return (
    <a className="preview__button" href={url} download={file.name || 'file'} aria-label="Download" title="Download">
      {ICONS.download}
    </a>
  );
}

export function Previewer({ source, onClose, index, count = 0, fromSearch = false, onCycle, subtitle }: PreviewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [cache] = useState(() => new PreviewCache());
  const key = sourceKey(source);
  // The same file listed again (the 5-second refresh, a live update) keeps the same handles, so a
  // view never reloads, nor a video restarts, unless what it shows changed.
  const fresh = previewFileOf(source);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the file's fields, not the object
  const file = useMemo(() => fresh, [fresh.name, fresh.mimeType, fresh.extension, fresh.size]);
  const latest = useRef(source);
  latest.current = source;
  const kind: PreviewKind = kindOfSource(source);
  const undecrypted = source.kind === 'item' && !source.item.decrypted;

  // What happened to the file shown: its error (and whether it may pass, so the file can still be
  // fetched), and whether its decrypted bytes are here. A retry starts the file's view afresh.
  const [status, setStatus] = useState<PreviewStatus>({ key, ...NOTHING_YET });
  const [attempt, setAttempt] = useState(0);
  const shown = status.key === key ? status : { key, ...NOTHING_YET };
  const current = useRef(key);
  current.current = key;
  const report = useCallback((of: string, patch: Partial<Omit<PreviewStatus, 'key'>>) => {
    if (current.current !== of) return;
    setStatus((prev) => {
      const base = prev.key === of ? prev : { key: of, ...NOTHING_YET };
      // The first error stays (a view failing after the decryption did says less).
      if (base.error !== null) return { ...base, available: patch.available ?? base.available };
      return { ...base, ...patch };
    });
  }, []);
  const retry = useCallback(() => {
    setStatus({ key: current.current, ...NOTHING_YET });
    setAttempt((n) => n + 1);
  }, []);
  // Offline, it loads again by itself once the connection is back.
  useEffect(() => {
    if (!shown.passing) return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [shown.passing, retry]);

  const props: RendererProps = useMemo(() => {
    // Each call opens the file in the cache again (its most recent), so a handle never goes stale.
    const bytes = () => cache.open(key, () => loadBlob(latest.current, kind));
    const watch = <T,>(promise: Promise<T>): Promise<T> =>
      promise.then(
        (value) => {
          report(key, { available: true });
          return value;
        },
        (error: unknown) => {
          report(key, failureOf(error));
          throw error;
        },
      );
    const stream = streamUrlFor(latest.current, kind);
    return {
      file,
      blob: () => watch(bytes().blob()),
      objectUrl: () => watch(bytes().objectUrl()),
      head: (n: number) => watch(cache.open(`${key}#head:${n}`, () => loadHead(latest.current, kind, n)).blob()),
      ...(stream ? { streamUrl: () => watch(stream()) } : {}),
      onError: (message: string) => report(key, failureOf(new Error(message))),
    };
    // A retry needs no new handles: the view mounts afresh, and the cache forgot the failed load.
  }, [cache, key, kind, file, report]);

  // The dialog opens modal on mount; focus returns to where it was when the previewer goes.
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement;
    if (element && !element.open) element.showModal();
    element?.querySelector<HTMLElement>('.preview__close')?.focus();
    return () => {
      if (element?.open) element.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  // Closing releases every decrypted file and its URL.
  useEffect(() => () => cache.clear(), [cache]);

  const cycling = canCycle({ index, count, fromSearch, canCycle: onCycle !== undefined });
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Tab') {
      trapFocus(event);
      return;
    }
    if (!cycling || event.defaultPrevented || isTyping(event.target)) return;
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    // docs/product.md "Screens": on video the arrows seek (the video view handles them).
    if (kind === 'video') return;
    event.preventDefault();
    onCycle?.(event.key === 'ArrowLeft' ? -1 : 1);
  };

  const View = useView(kind === 'unsupported' ? 'text' : kind, attempt);
  const title = file.name || ENCRYPTED_FILE;
  let body: ReactNode;
  if (undecrypted) body = <PreviewMessage alert text={PREVIEW_ERRORS.noKey} />;
  else if (shown.error)
    body = (
      <PreviewMessage alert text={shown.error}>
        {shown.passing && (
          <Button variant="secondary" onClick={retry}>
            Try again
          </Button>
        )}
      </PreviewMessage>
    );
  else if (kind === 'unsupported') body = <PreviewMessage title="Unsupported File Type" text={unsupportedText(file.extension)} />;
  else {
    body = (
      <ViewBoundary key={`${key}#${attempt}`} fallback={VIEW_FAILED[kind]}>
        <Suspense
          fallback={
            <div className="preview__loading">
              <Spinner label="Loading preview" />
            </div>
          }
        >
          <View key={`${key}#${attempt}`} {...props} />
        </Suspense>
      </ViewBoundary>
    );
  }

  const download = () => {
    if (source.kind !== 'item') return;
    const { item, scope, versionId } = source;
    const target = { id: item.id, name: item.name, isDirectory: false };
    const started = versionId ? downloadVersion(target, versionId, scope) : downloadItems([target], scope);
    started.catch(() => toast('Error downloading file/folder. Please try again.', 'error'));
  };

  return (
    <dialog
      ref={dialog}
      className="preview"
      aria-labelledby={titleId}
      data-kind={kind}
      // React passes cancel and close on to a dialog around this one (Info, for a version's
      // preview): Escape closes the previewer only.
      onCancel={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onClose();
      }}
      onClose={(event) => event.stopPropagation()}
      onKeyDown={onKeyDown}
    >
      <header className="preview__bar">
        <h2 id={titleId} className="preview__title" title={title}>
          {title}
          {subtitle && <span className="preview__subtitle">{subtitle}</span>}
        </h2>
        <div className="preview__actions">
          {((shown.available && !shown.error) || (shown.passing && source.kind === 'item')) &&
            (source.kind === 'local' ? (
              <LocalDownload file={source.file} />
            ) : (
              <button type="button" className="preview__button" aria-label="Download" title="Download" onClick={download}>
                {ICONS.download}
              </button>
            ))}
          <button
            type="button"
            className="preview__button preview__close"
            aria-label="Close preview"
            title="Close"
            onClick={onClose}
          >
            {ICONS.close}
          </button>
        </div>
      </header>
      <div className={cx('preview__stage', `preview__stage--${kind}`)}>
        {cycling && (
          <button
            type="button"
            className="preview__nav preview__nav--prev"
            aria-label="Previous file"
            title="Previous file"
            onClick={() => onCycle?.(-1)}
          >
            {ICONS.prev}
          </button>
        )}
        <div className="preview__view">{body}</div>
        {cycling && (
          <button
            type="button"
            className="preview__nav preview__nav--next"
            aria-label="Next file"
            title="Next file"
            onClick={() => onCycle?.(1)}
          >
            {ICONS.next}
          </button>
        )}
      </div>
    </dialog>
  );
}
