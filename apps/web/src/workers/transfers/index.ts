/**
 * File transfers, run inside the crypto worker (docs/protocol.md "Files and uploads"): upload.ts
 * (encrypt and send in parts), resume.ts (continue an unfinished upload), download.ts (hand a
 * download to the service worker), preview-stream.ts (hand an audio or video preview's key to the
 * service worker). This is their RPC surface, spread into the crypto worker's methods.
 */
import type { BrowseScope } from '../../model/browse-scope.ts';
import type { DownloadTarget, PendingUpload, UploadRequest, UploadResult } from '../../model/transfers.ts';
import { getRecord } from '../upload-records.ts';
import { TransferError } from './errors.ts';
import { prepareDownload } from './download.ts';
import { preparePreviewStream, type PreviewTarget } from './preview-stream.ts';
import { forgetUpload, pendingUploads } from './resume.ts';
import { running, uploadFile } from './upload.ts';

export const transferMethods = {
  /** Encrypts and uploads one file (or resumes `resumeUploadId`); progress events go to `progress`. */
  uploadFile(request: UploadRequest, progress?: MessagePort): Promise<UploadResult> {
    return uploadFile(request, progress);
  },

  /** Unfinished uploads that can resume (no keys in the answer): the signed-in user's, or those of a link's scope. */
  pendingUploads(scope: BrowseScope): Promise<PendingUpload[]> {
    return pendingUploads(scope);
  },

  /** Gives up an unfinished upload: the server frees its bytes, the record (and K) is deleted. */
  async discardUpload(uploadId: string): Promise<void> {
    running.forEach((controller, id) => {
      void getRecord(uploadId).then((r) => r?.id === id && controller.abort());
    });
    await forgetUpload(uploadId);
  },

  cancelUpload(id: string): void {
    running.get(id)?.abort(new TransferError('CANCELLED', 'Upload cancelled'));
  },

  prepareDownload(
    scope: BrowseScope,
    targets: DownloadTarget[],
    port: MessagePort,
  ): Promise<{ name: string; kind: 'file' | 'zip' }> {
    return prepareDownload(scope, targets, port);
  },

  /** Hands the service worker an audio or video item's key for a Range-served preview stream. */
  preparePreviewStream(scope: BrowseScope, target: PreviewTarget, port: MessagePort): Promise<{ mime: string }> {
    return preparePreviewStream(scope, target, port);
  },
};

export type TransferMethods = typeof transferMethods;
