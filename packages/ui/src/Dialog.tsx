import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button.tsx';
import { cx } from './cx.ts';
import { StrokeIcon } from './StrokeIcon.tsx';
import './overlays.css';

export interface DialogProps {
  open: boolean;
  /** Called with false when the user dismisses the dialog (Escape, the close button, the backdrop). */
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom (right aligned). */
  footer?: ReactNode;
  className?: string;
  /** 'md' (default, 440 px) or 'lg' (640 px). */
  size?: 'md' | 'lg';
}

/**
 * A modal dialog on the platform's `<dialog>` + `showModal()`: the rest of the page becomes
 * inert (focus cannot leave the dialog), Escape closes it, and focus returns to the opener.
 * Radix's Dialog would lock scrolling by injecting a <style> element, which the app's strict
 * CSP (style-src 'self') refuses; the native element needs no injected styles at all.
 */
export function Dialog({ open, onOpenChange, title, description, children, footer, className, size = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      // Focus the first field (or a button in the body) rather than the close button. A dialog
      // without one starts at its title: focusing a footer button would scroll a tall dialog
      // (Info on a phone) to its bottom, out of sight of its title.
      const first = dialog.querySelector<HTMLElement>('[data-autofocus], input, select, textarea, .sb-dialog__body button');
      if (first) first.focus();
      else {
        dialog.querySelector<HTMLElement>('.sb-dialog__title')?.focus();
        dialog.scrollTop = 0;
      }
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  const restoreFocus = () => {
    const target = opener.current;
    opener.current = null;
    if (target instanceof HTMLElement && target.isConnected) target.focus();
  };

  return (
    <dialog
      ref={ref}
      className={cx('sb-dialog', `sb-dialog--${size}`, className)}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // React passes cancel and close on to the dialogs around this one (a confirmation opened
      // from Info): only this one is dismissed, and only its own opener gets the focus back.
      onCancel={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onOpenChange(false);
      }}
      onClose={(event) => {
        event.stopPropagation();
        restoreFocus();
      }}
      onMouseDown={(event) => {
        // A press on the backdrop (the dialog element itself, outside its panel) dismisses.
        if (event.target === ref.current) onOpenChange(false);
      }}
    >
      {open && (
        <div className="sb-dialog__panel">
          <header className="sb-dialog__header">
            <h2 id={titleId} className="sb-dialog__title" tabIndex={-1}>
              {title}
            </h2>
            <button
              type="button"
              className="sb-icon-button sb-dialog__close"
              aria-label="Close"
              onClick={() => onOpenChange(false)}
            >
              <StrokeIcon size={18} strokeLinejoin={undefined}>
                <path d="M6 6l12 12M18 6 6 18" />
              </StrokeIcon>
            </button>
          </header>
          {description && (
            <p id={descriptionId} className="sb-dialog__description">
              {description}
            </p>
          )}
          <div className="sb-dialog__body">{children}</div>
          {footer && <footer className="sb-dialog__footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}

export type CloseDialogProps = Omit<DialogProps, 'onOpenChange' | 'footer'> & {
  /** Called however the user dismisses it: Escape, the backdrop, the × or the Close button. */
  onClose: () => void;
};

/** A dialog that only shows something, so its one footer button is Close. */
export function CloseDialog({ onClose, ...props }: CloseDialogProps) {
  return (
    <Dialog
      {...props}
      onOpenChange={(next) => !next && onClose()}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    />
  );
}
