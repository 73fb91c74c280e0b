/**
 * Files dropped anywhere on the listing upload into the open folder (issue 14). While files are
 * dragged over it, an outline and 'Drop files to upload to <folder>' show where they will go;
 * where the user may not upload, the outline says SPEC 5's refusal instead and a drop does
 * nothing. Only drags that carry files count (not a dragged link or text).
 */
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { toast } from '@sealbox/ui';
import { useUploadInto, type UploadTarget } from './useUploadInto.ts';
import './transfers.css';

export interface FileDropZoneProps extends UploadTarget {
  /** The open folder's name, as the drop target says it. */
  folderName: string;
  /** Why uploads are refused here (SPEC 5's text); undefined when they are allowed. */
  blocked: string | undefined;
  children: ReactNode;
}

const carriesFiles = (event: Pick<globalThis.DragEvent, 'dataTransfer'>) =>
  Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dropped outside a drop zone (the sidebar, a dialog's edge) would make the browser leave
 * the app to show the file; they are ignored instead. Returns the undo.
 */
export function ignoreStrayFileDrops(): () => void {
  const ignore = (event: globalThis.DragEvent) => {
    // A drop zone took it (it prevented the default): leave its drop effect alone.
    if (event.defaultPrevented || !carriesFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
  };
  window.addEventListener('dragover', ignore);
  window.addEventListener('drop', ignore);
  return () => {
    window.removeEventListener('dragover', ignore);
    window.removeEventListener('drop', ignore);
  };
}

export function FileDropZone({ folderName, blocked, children, ...target }: FileDropZoneProps) {
  const upload = useUploadInto(target);
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when the drag left.
  const depth = useRef(0);

  const enter = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current++;
    setDragging(true);
  };
  const over = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = blocked ? 'none' : 'copy';
  };
  const leave = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const drop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (blocked) {
      toast(blocked, 'error');
      return;
    }
    void upload(Array.from(event.dataTransfer?.files ?? [])).then((problem) => problem && toast(problem, 'error'));
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; Upload File does the same from the keyboard
    <div
      className={`file-drop${dragging ? ' file-drop--active' : ''}${blocked ? ' file-drop--blocked' : ''}`}
      onDragEnter={enter}
      onDragOver={over}
      onDragLeave={leave}
      onDrop={drop}
      data-testid="file-drop"
    >
      {children}
      {dragging && (
        <div className="file-drop__target" aria-hidden="true">
          <p className="file-drop__text">{blocked ?? `Drop files to upload to ${folderName}`}</p>
        </div>
      )}
    </div>
  );
}
