/** Copy link in the Share dialog: the full URL, its key only in the fragment (docs/protocol.md). */
import { toast } from '@sealbox/ui';
import { RpcError, cryptoWorker } from '../../../crypto/client.ts';
import { SHARE_TEXT, linkUrl } from './share-logic.ts';

/** Copies the link's full URL; the fragment (the item's K) is asked of the worker at the click. */
export async function copyLink(itemId: string, linkId: string): Promise<void> {
  let fragment: string;
  try {
    fragment = await cryptoWorker.call('linkFragment', itemId);
  } catch (error) {
    toast(error instanceof RpcError && error.code === 'NO_KEY' ? SHARE_TEXT.noKey : SHARE_TEXT.copyFailed, 'error');
    return;
  }
  try {
    await navigator.clipboard.writeText(linkUrl(location.origin, linkId, fragment));
    toast('Link copied', 'success');
  } catch {
    toast(SHARE_TEXT.copyFailed, 'error');
  }
}
