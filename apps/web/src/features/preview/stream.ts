/**
 * The seam for media streaming (RendererProps.streamUrl): an encrypted audio or video item plays
 * from the service worker's Range stream (features/transfers previewStreamUrl, docs/protocol.md
 * "Preview streams"), which fetches and decrypts only the chunks each range needs. Undefined
 * (local files, other kinds, no service worker): the view falls back to `objectUrl()`.
 */
import { previewStreamUrl } from '../transfers/index.ts';
import type { PreviewSource } from './source.ts';
import type { PreviewKind } from './types.ts';

export function streamUrlFor(source: PreviewSource, kind: PreviewKind): (() => Promise<string>) | undefined {
  if (source.kind !== 'item' || (kind !== 'audio' && kind !== 'video')) return undefined;
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return undefined;
  const { item, linkId } = source;
  // A new stream per call: the view releases the URL it got when it unmounts.
  return () => previewStreamUrl(item, linkId);
}
