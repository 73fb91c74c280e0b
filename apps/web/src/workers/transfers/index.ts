/**
 * File transfers, run inside the crypto worker (DESIGN.md 5): upload.ts (encrypt and send in
 * parts), resume.ts (continue an unfinished upload), download.ts (hand a download to the service
 * worker), preview-stream.ts (hand an audio or video preview's key to the service worker). This
 * is their RPC surface, spread into the crypto worker's methods.
 */
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

  /** Unfinished uploads that can resume (no keys in the answer): My Files', or those of share link `linkId`. */
  pendingUploads(linkId?: string): Promise<PendingUpload[]> {
    return pendingUploads(linkId);
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
    targets: DownloadTarget[],
    port: MessagePort,
    linkId?: string,
  ): Promise<{ name: string; kind: 'file' | 'zip' }> {
    return prepareDownload(targets, port, linkId);
  },

  /** Hands the service worker an audio or video item's key for a Range-served preview stream. */
  preparePreviewStream(target: PreviewTarget, port: MessagePort, linkId?: string): Promise<{ mime: string }> {
    return preparePreviewStream(target, port, linkId);
  },
};

export type TransferMethods = typeof transferMethods;
