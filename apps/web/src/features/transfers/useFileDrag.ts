/**
 * Dragging files over a drop target: the listing (FileDropZone) and the upload dialog
 * (UploadOverlay) share it. Only drags that carry files count (not a dragged link or text), and
 * the drag has left once as many dragleave events as dragenter ones came (they fire for every
 * child crossed).
 */
import { useRef, useState, type DragEvent } from 'react';

/** Whether a drag carries files from the desktop. */
export const carriesFiles = (event: Pick<globalThis.DragEvent, 'dataTransfer'>): boolean =>
  Array.from(event.dataTransfer?.types ?? []).includes('Files');

export interface FileDrag {
  /** Files are being dragged over the target. */
  dragging: boolean;
  /** Spread on the drop target. */
  handlers: {
    onDragEnter: (event: DragEvent) => void;
    onDragOver: (event: DragEvent) => void;
    onDragLeave: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
  };
}

/**
 * `onFiles` gets the dropped files. `blocked`: uploads are refused here, so the pointer shows no
 * copy (the drop still reaches `onFiles`, to say why).
 */
export function useFileDrag(onFiles: (files: File[]) => void, blocked = false): FileDrag {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  return {
    dragging,
    handlers: {
      onDragEnter: (event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current++;
        setDragging(true);
      },
      onDragOver: (event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = blocked ? 'none' : 'copy';
      },
      onDragLeave: (event) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      },
      onDrop: (event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        onFiles(Array.from(event.dataTransfer?.files ?? []));
      },
    },
  };
}
