/**
 * The previewer's contract between its shell (Previewer.tsx: title, download, cycling, errors)
 * and the view of each file type (renderers/). The shell decides where the bytes come from: a
 * local File on /preview, or an encrypted item decrypted in the crypto worker (whole, as a Blob)
 * or streamed through the service worker with HTTP Range (media). Views never see keys.
 */

/**
 * docs/product.md "Screens" Previewer types, by mime type or extension (the one file-type table,
 * @sealbox/rules).
 */
export type { PreviewKind } from '@sealbox/rules';

export interface PreviewFile {
  /** Null when the name did not decrypt (the title then says 'Encrypted File'). */
  name: string | null;
  mimeType: string | null;
  /** Lower-case, without the dot; '' when none. */
  extension: string;
  /** Plaintext bytes. */
  size: number;
}

/** docs/product.md "Messages" texts the views and the shell show. */
export const PREVIEW_ERRORS = {
  decrypt: 'Error decrypting file.',
  text: 'Failed to load text preview content.',
  word: 'Failed to load Word document.',
  noKey: 'File encryption key not found',
  noNonce: 'File nonce not found',
} as const;

export interface RendererProps {
  file: PreviewFile;
  /**
   * The whole decrypted file. Made once per opened file and reused (docs/product.md "States"); rejects with an
   * Error whose message is one of PREVIEW_ERRORS when it cannot be had.
   */
  blob: () => Promise<Blob>;
  /**
   * An object URL of `blob()`, made once and reused while the previewer shows this file, and
   * revoked by the shell when it no longer needs it. Never opened as a page.
   */
  objectUrl: () => Promise<string>;
  /**
   * Media only (audio, video): a same-origin URL the media element can read with HTTP Range, served
   * by the service worker, which fetches and decrypts only the chunks that cover each range.
   * Undefined for local files (the view then uses `objectUrl`).
   * Make it with `previewStreamUrl(item: Pick<ItemView, 'id' | 'mimeType' | 'extension'>, scope:
   * BrowseScope): Promise<string>` from features/transfers (e.g. `() => previewStreamUrl(item, scope)`).
   * Each call makes a new stream; the view releases the URL it got (releasePreviewStream) when it
   * unmounts, so do not cache the promise: pass a function that calls the helper.
   */
  streamUrl?: (() => Promise<string>) | undefined;
  /** Shows an error in place of the view (one of PREVIEW_ERRORS, or a view's own text). */
  onError: (message: string) => void;
  /**
   * Added by the shell (optional, so every view compiles without it): the first `bytes` of the
   * decrypted file (all of it when smaller), fetching and decrypting only the chunks that cover
   * them. For a view that shows a file's beginning (text) without decrypting the whole file.
   */
  head?: ((bytes: number) => Promise<Blob>) | undefined;
}

/*
 * Keys: a view that uses a key itself (video: left/right arrows seek 10 s; audio and video: Space
 * toggles play) handles it on window in the capture phase and calls event.preventDefault(). The
 * shell's own keydown handling (arrows cycle) must skip events with `event.defaultPrevented`.
 */

/*
 * Notes from the shell (Previewer.tsx), for the views:
 * - A rejection of `blob()`, `objectUrl()` or `streamUrl()` is shown by the shell itself (its
 *   message is already one of PREVIEW_ERRORS); a view need not catch it to report it. The first
 *   error reported for a file is the one shown, so a view's own text after a failed decryption
 *   does not hide 'Error decrypting file.'.
 * - The download button appears once any of the three resolves for the file shown.
 * - Each view is mounted with `key` = the file, so moving to another file mounts it afresh; the
 *   handles above are stable for a file and safe to list in effect dependencies.
 * - Arrow keys: the shell cycles on ArrowLeft/ArrowRight except on video (kind 'video': the video
 *   view owns them to seek), when the key comes from an input, textarea, select or contenteditable
 *   (the pdf page input), or when a view's handler already called `event.preventDefault()` (a
 *   keydown listener inside the view, on the bubbling path below the <dialog>).
 * - `streamUrl` comes from features/preview/stream.ts `streamUrlFor(source, kind)` (audio and video
 *   items only; undefined for local files and other kinds), a fresh stream on every call.
 * - Styles: preview.css is the shell's (and the image and text views'); give other views their own
 *   renderers/<View>.css. The view sits in a flex box filling the screen under the title bar.
 */
