/**
 * RendererProps.streamUrl for audio and video items: a same-origin URL the service worker answers
 * with HTTP Range, decrypting only the chunks each range needs (features/transfers
 * preview-stream.ts). A fresh stream on every call (the view releases the URL it got). Local
 * files and other kinds get none: their views use `objectUrl()`.
 */
import { previewStreamUrl } from '../transfers/index.ts';
import type { PreviewSource } from './source.ts';
import type { PreviewKind } from './types.ts';

export function streamUrlFor(source: PreviewSource, kind: PreviewKind): (() => Promise<string>) | undefined {
  if (source.kind !== 'item' || (kind !== 'audio' && kind !== 'video')) return undefined;
  const { item, scope } = source;
  return () => previewStreamUrl(item, scope);
}
