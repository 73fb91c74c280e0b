/**
 * The open <dialog> shown last, for what must stay above every dialog (the toasts).
 *
 * `showModal()` puts a dialog and its backdrop in the browser's top layer, above any z-index, and
 * makes the rest of the page inert: hidden from screen readers and from the pointer. A toast
 * outside the dialog would sit under its backdrop, so the Toaster renders inside this one
 * instead. Dialogs of this app open modal only (Dialog.tsx, the previewer), and the top layer
 * stacks them in the order they opened, so the last to open is on top.
 */
import { useEffect, useState } from 'react';

function holdsDialog(node: Node): boolean {
  return node instanceof Element && (node.localName === 'dialog' || node.querySelector('dialog') !== null);
}

export function useTopDialog(): HTMLDialogElement | null {
  const [top, setTop] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    const openedAt = new Map<HTMLDialogElement, number>();
    let opened = 0;
    const update = () => {
      let last: HTMLDialogElement | null = null;
      for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog[open]')) {
        if (!openedAt.has(dialog)) openedAt.set(dialog, ++opened);
        if (!last || openedAt.get(dialog)! > openedAt.get(last)!) last = dialog;
      }
      for (const dialog of openedAt.keys()) if (!dialog.open || !dialog.isConnected) openedAt.delete(dialog);
      setTop(last);
    };
    // A dialog opens or closes (its `open` attribute), or leaves the page still open.
    const observer = new MutationObserver((records) => {
      const relevant = records.some(
        (record) => record.type === 'attributes' || [...record.removedNodes, ...record.addedNodes].some(holdsDialog),
      );
      if (relevant) update();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
    update();
    return () => observer.disconnect();
  }, []);
  return top;
}
