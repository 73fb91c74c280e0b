/**
 * Files dropped anywhere on the listing upload into the open folder (issue 14). While files are
 * dragged over it, an outline and 'Drop files to upload to <folder>' show where they will go;
 * where the user may not upload, the outline says docs/product.md "Input rules" refusal instead and
 * a drop does nothing. Only drags that carry files count (not a dragged link or text).
 */
import type { ReactNode } from 'react';
import { toast } from '@sealbox/ui';
import { carriesFiles, useFileDrag } from './useFileDrag.ts';
import { useUploadInto, type UploadTarget } from './useUploadInto.ts';
import './transfers.css';

export interface FileDropZoneProps extends UploadTarget {
  /** The open folder's name, as the drop target says it. */
  folderName: string;
  /**
   * Why uploads are refused here (docs/product.md "Input rules" text); undefined when they are
   * allowed.
   */
  blocked: string | undefined;
  children: ReactNode;
}

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
  const { dragging, handlers } = useFileDrag((files) => {
    if (blocked) {
      toast(blocked, 'error');
      return;
    }
    void upload(files).then((problem) => problem && toast(problem, 'error'));
  }, blocked !== undefined);

  return (
    <div
      className={`file-drop${dragging ? ' file-drop--active' : ''}${blocked ? ' file-drop--blocked' : ''}`}
      {...handlers}
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
