/**
 * Preview streams, prepared inside the crypto worker: the service worker gets what it needs to
 * answer a media element's Range requests (the item's K, file nonce, plaintext size and media
 * type) on a MessagePort whose other end the page gave it. As for downloads, key bytes go
 * worker -> service worker and never through the page.
 */
import { fromBase64, plaintextSize } from '@sealbox/crypto';
import type { BrowseScope } from '../../model/browse-scope.ts';
import { previewMediaType, type PreviewJob } from '../../model/transfers.ts';
import { itemKey } from '../key-rings.ts';
import { getListing } from '../listing-fetch.ts';
import { TransferError, transferError } from './errors.ts';
import { versionContent } from './versions.ts';

/** What the page names for a preview stream (no keys). */
export interface PreviewTarget {
  id: string;
  mimeType: string | null;
  extension: string;
  /** An earlier version of the file rather than its newest content. */
  versionId?: string;
}

/**
 * Posts the preview job for `target` on `port` and resolves once the service worker holds it.
 * The key posted is a copy, wiped here afterwards. The item is reached in `scope` (its key from
 * that scope's ring; a link's data calls carry its id).
 */
export async function preparePreviewStream(
  scope: BrowseScope,
  target: PreviewTarget,
  port: MessagePort,
): Promise<{ mime: string }> {
  let job: PreviewJob | undefined;
  try {
    const mime = previewMediaType(target.mimeType, target.extension);
    if (!mime) throw new TransferError('NOT_MEDIA', 'Not an audio or video file');
    const { root } = await getListing(scope, target.id, 1, 1, 0, transferError);
    if (!root || root.isDirectory) throw new TransferError('NOT_FOUND', 'File not found');
    if (root.fileNonce === null) throw new TransferError('BAD_ITEM', 'File nonce not found');
    // An earlier version has its own nonce and size under the same K (docs/protocol.md "Versions").
    const content = target.versionId
      ? await versionContent(scope, root.id, target.versionId)
      : { fileNonce: fromBase64(root.fileNonce, 'fileNonce'), size: plaintextSize(root.size) };
    job = {
      itemId: root.id,
      key: new Uint8Array(itemKey(scope, root.id)),
      ...content,
      mime,
      scope,
      ...(target.versionId ? { versionId: target.versionId } : {}),
    };
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new TransferError('SW_TIMEOUT', 'The preview helper did not answer')), 10_000);
      port.onmessage = (event: MessageEvent) => {
        const type = (event.data as { type?: string })?.type;
        if (type === 'ready' || type === 'refused') clearTimeout(timer);
        if (type === 'ready') resolve();
        else if (type === 'refused') reject(new TransferError('SW_REFUSED', 'The preview helper refused the stream'));
      };
    });
    port.postMessage({ type: 'job', job });
    await ready;
    return { mime };
  } finally {
    job?.key.fill(0);
    port.close();
  }
}
