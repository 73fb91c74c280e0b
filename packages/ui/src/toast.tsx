import { useSyncExternalStore, type CSSProperties } from 'react';
import { Portal } from 'radix-ui';
import { cx } from './cx.ts';
import { useTopDialog } from './top-dialog.ts';

/** docs/product.md "Messages": at most 3 toasts at once, 3 seconds each. */
export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 3000;

/** A toast that offers to take back what it reports (Undo) stays this long, to be reached. */
export const ACTION_TOAST_DURATION_MS = 8000;

export type ToastKind = 'info' | 'success' | 'error';
export interface ToastAction {
  label: string;
  run: () => void;
}
export interface Toast {
  id: number;
  message: string;
  kind: ToastKind;
  action?: ToastAction | undefined;
  durationMs: number;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  publish(toasts.filter((t) => t.id !== id));
}

export function toast(message: string, kind: ToastKind = 'info', options: { action?: ToastAction } = {}): number {
  const id = nextId++;
  const durationMs = options.action ? ACTION_TOAST_DURATION_MS : TOAST_DURATION_MS;
  // Oldest toasts make room for new ones rather than queueing behind them.
  publish([...toasts, { id, message, kind, action: options.action, durationMs }].slice(-TOAST_LIMIT));
  setTimeout(() => dismissToast(id), durationMs);
  return id;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}

/**
 * The toasts, bottom right. While a dialog is open they render inside it (top-dialog.ts): above
 * its backdrop, and not made inert with the page behind it (docs/web-files.md "Phone and browser
 * conventions").
 */
export function Toaster() {
  const items = useToasts();
  const dialog = useTopDialog();
  const toaster = (
    <section className="sb-toaster" aria-label="Notifications">
      {items.map((t) => (
        // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a click only dismisses early; every toast leaves by itself, and screen readers hear it through its role.
        <div
          key={t.id}
          className={cx('sb-toast', `sb-toast--${t.kind}`, t.action && 'sb-toast--action')}
          role={t.kind === 'error' ? 'alert' : 'status'}
          style={{ '--sb-toast-duration': `${t.durationMs}ms` } as CSSProperties}
          onClick={() => dismissToast(t.id)}
        >
          <span className="sb-toast__message">{t.message}</span>
          {t.action && (
            <button
              type="button"
              className="sb-toast__action"
              onClick={(event) => {
                event.stopPropagation();
                dismissToast(t.id);
                t.action?.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <span className="sb-toast__progress" aria-hidden="true" />
        </div>
      ))}
    </section>
  );
  return dialog ? <Portal.Root container={dialog}>{toaster}</Portal.Root> : toaster;
}
