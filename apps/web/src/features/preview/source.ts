/**
 * Where the previewer's bytes come from: a local File (/preview: nothing touches the network),
 * or an encrypted item decrypted whole in the crypto worker (workers/preview.ts), its errors
 * turned into docs/product.md "Messages" texts.
 */
import { bareMime, imageType } from '@sealbox/rules';
import { cryptoWorker, RpcError } from '../../crypto/client.ts';
import { type BrowseScope, scopeName } from '../../model/browse-scope.ts';
import { failureKind, failureText, passes } from '../../model/failure.ts';
import type { ItemView } from '../../model/items.ts';
import { detectKind, extensionOf } from './detect.ts';
import { PREVIEW_ERRORS, type PreviewFile, type PreviewKind } from './types.ts';

export type PreviewItem = Pick<ItemView, 'id' | 'name' | 'mimeType' | 'extension' | 'size' | 'isDirectory' | 'decrypted'>;

export type PreviewSource =
  | { kind: 'local'; file: File }
  /**
   * The item is reached in `scope` (its key already in that ring of the crypto worker); with
   * `versionId`, an earlier version of it (Info's Versions), whose size `item.size` then is.
   */
  | { kind: 'item'; item: PreviewItem; scope: BrowseScope; versionId?: string };

const localIds = new WeakMap<File, string>();

/** A stable key of the source (the cache's key). */
export function sourceKey(source: PreviewSource): string {
  if (source.kind === 'item')
    return `item:${scopeName(source.scope)}:${source.item.id}${source.versionId ? `@${source.versionId}` : ''}`;
  let id = localIds.get(source.file);
  if (!id) {
    id = `local:${crypto.randomUUID()}`;
    localIds.set(source.file, id);
  }
  return id;
}

export function previewFileOf(source: PreviewSource): PreviewFile {
  if (source.kind === 'local') {
    const { file } = source;
    return { name: file.name || null, mimeType: file.type || null, extension: extensionOf(file.name), size: file.size };
  }
  const { item } = source;
  return {
    name: item.decrypted ? item.name : null,
    mimeType: item.decrypted ? item.mimeType : null,
    extension: item.decrypted ? item.extension : '',
    size: item.size,
  };
}

/**
 * The type the decrypted Blob is given: what its view needs (an SVG only renders in an <img>
 * as image/svg+xml), and nothing a browser would run as a page for any other kind.
 */
export function blobTypeFor(kind: PreviewKind, file: PreviewFile): string {
  const mime = bareMime(file.mimeType);
  switch (kind) {
    case 'image':
      return imageType(file) ?? 'application/octet-stream';
    case 'audio':
    case 'video':
      return mime.startsWith(`${kind}/`) ? mime : 'application/octet-stream';
    case 'pdf':
      return 'application/pdf';
    case 'text':
      return 'text/plain';
    default:
      return 'application/octet-stream';
  }
}

/**
 * A preview that could not be had: its text, and whether the failure may pass by itself (offline,
 * a server that could not be reached or answered with an error), so that the file can still be
 * fetched later: the previewer then offers Try again and Download, and tries again by itself when
 * the connection is back.
 */
export class PreviewFailure extends Error {
  constructor(
    message: string,
    readonly passing: boolean,
  ) {
    super(message);
    this.name = 'PreviewFailure';
  }
}

/**
 * docs/product.md "Messages" text for a failure of the worker's `decryptItem` in `scope`, told
 * apart as docs/web-files.md "Errors that say what happened" has it (model/failure.ts).
 */
export function previewFailure(error: unknown, scope: BrowseScope, online = navigator.onLine): PreviewFailure {
  const code = error instanceof RpcError ? error.code : (error as { code?: unknown } | null)?.code;
  if (code === 'NO_KEY') return new PreviewFailure(PREVIEW_ERRORS.noKey, false);
  if (code === 'NO_NONCE') return new PreviewFailure(PREVIEW_ERRORS.noNonce, false);
  const kind = failureKind(error, scope, online);
  return new PreviewFailure(failureText(kind, error) ?? PREVIEW_ERRORS.decrypt, passes(kind));
}

/** The worker calls' last argument for an earlier version; none for the current content. */
const versionArgs = (source: PreviewSource & { kind: 'item' }): [] | [string] => (source.versionId ? [source.versionId] : []);

/** Loads the whole decrypted file of `source`. Rejects with a PreviewFailure. */
export async function loadBlob(source: PreviewSource, kind: PreviewKind): Promise<Blob> {
  if (source.kind === 'local') return source.file;
  if (!source.item.decrypted) throw new PreviewFailure(PREVIEW_ERRORS.noKey, false);
  try {
    const type = blobTypeFor(kind, previewFileOf(source));
    return await cryptoWorker.call('decryptItem', source.scope, source.item.id, type, ...versionArgs(source));
  } catch (error) {
    throw previewFailure(error, source.scope);
  }
}

/** The first `bytes` of the decrypted file of `source` (only the chunks that cover them are fetched). */
export async function loadHead(source: PreviewSource, kind: PreviewKind, bytes: number): Promise<Blob> {
  if (source.kind === 'local') return source.file.slice(0, bytes);
  if (!source.item.decrypted) throw new PreviewFailure(PREVIEW_ERRORS.noKey, false);
  try {
    return await cryptoWorker.call(
      'decryptItemHead',
      source.scope,
      source.item.id,
      bytes,
      blobTypeFor(kind, previewFileOf(source)),
      ...versionArgs(source),
    );
  } catch (error) {
    throw previewFailure(error, source.scope);
  }
}

/** `kind` of the source, with an item that did not decrypt counting as unsupported. */
export function kindOfSource(source: PreviewSource): PreviewKind {
  return detectKind(previewFileOf(source));
}
