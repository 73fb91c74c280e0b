/**
 * The one table of file types: for each extension and each mime type, the icon an item gets,
 * whether and how the previewer shows it (docs/product.md "Screens" "Previewer": pdf, text, audio,
 * video, image, Word), whether the grid draws it a thumbnail (docs/product.md "Screens" "previews
 * of images and videos"), and the content type its decrypted bytes are given. The browser's
 * listing, previewer, thumbnail worker and preview service worker all read it, and so will the
 * command-line client; a type is added here once (docs/web-files.md "File types").
 */

/** The icon family of an item in the listing. */
export type IconKind = 'folder' | 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'document' | 'archive' | 'file';
/** The previewer's view of a file. */
export type PreviewKind = 'pdf' | 'text' | 'audio' | 'video' | 'image' | 'word' | 'unsupported';
/** What a grid thumbnail is drawn from: a raster image, or a video's frame. */
export type ThumbnailKind = 'image' | 'video';

export interface TypedFile {
  mimeType: string | null;
  /** Lower-case, without the dot; '' when none (`extensionOf`). */
  extension: string;
}

interface ExtensionRow {
  icon: Exclude<IconKind, 'folder'>;
  preview?: Exclude<PreviewKind, 'unsupported'>;
  thumbnail?: ThumbnailKind;
  /**
   * The type the decrypted bytes are given to be shown or played when the item's own mime type
   * will not do: an image's Blob, a video for its poster frame, an audio or video stream.
   */
  type?: string;
}

const image = (type: string): ExtensionRow => ({ icon: 'image', preview: 'image', thumbnail: 'image', type });
const video = (type: string): ExtensionRow => ({ icon: 'video', preview: 'video', thumbnail: 'video', type });
const audio = (type: string): ExtensionRow => ({ icon: 'audio', preview: 'audio', type });

const BY_EXTENSION = new Map<string, ExtensionRow>([
  ['jpg', image('image/jpeg')],
  ['jpeg', image('image/jpeg')],
  ['png', image('image/png')],
  ['gif', image('image/gif')],
  ['bmp', image('image/bmp')],
  ['webp', image('image/webp')],
  // Shown only through <img> in the previewer, never rasterised for a thumbnail.
  ['svg', { icon: 'image', preview: 'image', type: 'image/svg+xml' }],
  ['mp4', video('video/mp4')],
  ['mov', video('video/mp4')],
  ['webm', video('video/webm')],
  // Browsers decode its frames for a poster; docs/product.md "Screens" does not list it for the
  // previewer.
  ['m4v', { icon: 'video', thumbnail: 'video', type: 'video/mp4' }],
  ['mkv', { icon: 'video' }],
  ['mp3', audio('audio/mpeg')],
  ['wav', audio('audio/wav')],
  ['m4a', audio('audio/mp4')],
  ['ogg', { icon: 'audio' }],
  ['flac', { icon: 'audio' }],
  ['pdf', { icon: 'pdf', preview: 'pdf', type: 'application/pdf' }],
  ['txt', { icon: 'text', preview: 'text', type: 'text/plain' }],
  ['md', { icon: 'text' }],
  ['csv', { icon: 'text' }],
  ['json', { icon: 'text' }],
  ['log', { icon: 'text' }],
  ['doc', { icon: 'document', preview: 'word' }],
  ['docx', { icon: 'document', preview: 'word' }],
  ['odt', { icon: 'document' }],
  ['rtf', { icon: 'document' }],
  ['zip', { icon: 'archive' }],
  ['tar', { icon: 'archive' }],
  ['gz', { icon: 'archive' }],
  ['7z', { icon: 'archive' }],
  ['rar', { icon: 'archive' }],
]);

interface MimeRow {
  preview?: Exclude<PreviewKind, 'unsupported'>;
  thumbnail?: ThumbnailKind;
  /** A preview stream may be served as this type: media only, never one a browser renders as a page. */
  stream?: true;
}

const AUDIO: MimeRow = { preview: 'audio', stream: true };
const VIDEO: MimeRow = { preview: 'video', thumbnail: 'video', stream: true };
const IMAGE: MimeRow = { preview: 'image', thumbnail: 'image' };
/** Allowed for a stream, though nothing the previewer opens by its mime type alone. */
const MEDIA: MimeRow = { stream: true };

const BY_MIME = new Map<string, MimeRow>([
  ['application/pdf', { preview: 'pdf' }],
  ['text/plain', { preview: 'text' }],
  ['audio/mpeg', AUDIO],
  ['audio/mp3', AUDIO],
  ['audio/wav', AUDIO],
  ['audio/wave', AUDIO],
  ['audio/x-wav', AUDIO],
  ['audio/mp4', AUDIO],
  // Not a registered type: its stream is served as the extension's (audio/mp4).
  ['audio/m4a', { preview: 'audio' }],
  ['audio/x-m4a', AUDIO],
  ['audio/aac', MEDIA],
  ['audio/ogg', MEDIA],
  ['audio/webm', MEDIA],
  ['video/mp4', VIDEO],
  ['video/quicktime', VIDEO],
  ['video/webm', VIDEO],
  ['video/ogg', MEDIA],
  ['image/jpeg', IMAGE],
  // Names some systems give JPEGs; the previewer goes by the extension for them.
  ['image/jpg', { thumbnail: 'image' }],
  ['image/pjpeg', { thumbnail: 'image' }],
  ['image/png', IMAGE],
  ['image/gif', IMAGE],
  ['image/bmp', IMAGE],
  ['image/x-ms-bmp', IMAGE],
  ['image/webp', IMAGE],
  ['image/svg+xml', { preview: 'image' }],
  ['application/msword', { preview: 'word' }],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', { preview: 'word' }],
]);

/** The bare mime type: lower-case, without parameters ("text/plain; charset=utf-8" is "text/plain"). */
export function bareMime(mimeType: string | null | undefined): string {
  return (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
}

const byExtension = (extension: string) => BY_EXTENSION.get(extension.toLowerCase());

/** Lower-case extension of `name` without the dot ('' when none, or for a name like '.env'). */
export function extensionOf(name: string | null | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The icon of an item: by the family of its mime type first, then its extension. */
export function iconKind(item: TypedFile & { isDirectory: boolean }): IconKind {
  if (item.isDirectory) return 'folder';
  const mime = item.mimeType ?? '';
  for (const family of ['image', 'video', 'audio'] as const) if (mime.startsWith(`${family}/`)) return family;
  if (mime === 'application/pdf') return 'pdf';
  if (mime.startsWith('text/')) return 'text';
  return byExtension(item.extension)?.icon ?? 'file';
}

/** The previewer's view: the mime type decides when it names a previewed type, else the extension. */
export function previewKind(file: TypedFile): PreviewKind {
  return BY_MIME.get(bareMime(file.mimeType))?.preview ?? byExtension(file.extension)?.preview ?? 'unsupported';
}

/** 'image' or 'video' for what gets a grid thumbnail (by mime type or extension); SVG never does. */
export function thumbnailKind(item: TypedFile & { isDirectory: boolean }): ThumbnailKind | null {
  if (item.isDirectory) return null;
  const mime = bareMime(item.mimeType);
  if (mime.includes('svg') || item.extension === 'svg' || item.extension === 'svgz') return null;
  return BY_MIME.get(mime)?.thumbnail ?? byExtension(item.extension)?.thumbnail ?? null;
}

/** The type a video's bytes are given on the page (<video src> only, for its poster frame). */
export function videoType(item: TypedFile): string {
  if ((item.mimeType ?? '').toLowerCase() === 'video/webm') return 'video/webm';
  const row = byExtension(item.extension);
  return (row?.thumbnail === 'video' && row.type) || 'video/mp4';
}

/** The types an image preview's Blob may have: what its view needs (an SVG renders in <img> only as image/svg+xml). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(
  [...BY_EXTENSION.values()].flatMap((row) => (row.preview === 'image' && row.type ? [row.type] : [])),
);

/** The type an image's decrypted bytes are given: its own when it is an image type, else its extension's; null if neither. */
export function imageType(file: TypedFile): string | null {
  const mime = bareMime(file.mimeType);
  if (IMAGE_TYPES.has(mime)) return mime;
  const row = byExtension(file.extension);
  return row?.preview === 'image' ? (row.type ?? null) : null;
}

/** Media types a preview stream may carry (never a type a browser would render as a document). */
export const STREAM_TYPES: ReadonlySet<string> = new Set([...BY_MIME].flatMap(([mime, row]) => (row.stream ? [mime] : [])));

/**
 * The Content-Type a preview stream is served with: the item's own mime type when it is an
 * allowed media type, else its extension's (docs/product.md "Screens" audio and video extensions);
 * null when neither fits (no stream is made).
 */
export function streamType(file: TypedFile): string | null {
  const mime = bareMime(file.mimeType);
  if (STREAM_TYPES.has(mime)) return mime;
  const row = byExtension(file.extension);
  return row?.preview === 'audio' || row?.preview === 'video' ? (row.type ?? null) : null;
}
