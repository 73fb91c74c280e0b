/**
 * RendererProps.streamUrl for audio and video items: a same-origin URL the service worker answers
 * with HTTP Range, decrypting only the chunks each range needs (features/transfers
 * preview-stream.ts). A fresh stream on every call (the view releases the URL it got). Local
 * files and other kinds get none: their views use `objectUrl()`.
 */
import { previewStreamUrl } from '../transfers/index.ts';
import { previewFailure, type PreviewSource } from './source.ts';
import { PREVIEW_ERRORS, type PreviewKind } from './types.ts';

export function streamUrlFor(source: PreviewSource, kind: PreviewKind): (() => Promise<string>) | undefined {
  if (source.kind !== 'item' || (kind !== 'audio' && kind !== 'video')) return undefined;
  const { item, scope, versionId } = source;
  // A stream that could not be made for want of the network or the server says so, as a whole file would.
  return () =>
    previewStreamUrl(item, scope, versionId).catch((error: unknown) => {
      const cause = error instanceof Error && error.message === PREVIEW_ERRORS.decrypt ? error.cause : undefined;
      throw cause === undefined ? error : previewFailure(cause, scope);
    });
}
