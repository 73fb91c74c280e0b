/**
 * SPEC 2 Previewer: the kind of view a file gets, by its mime type or else its extension. Only
 * the types the SPEC names are previewed; anything else (text/html among them) is 'unsupported'.
 */
import type { PreviewKind } from './types.ts';

const BY_MIME: Readonly<Record<string, PreviewKind>> = {
  'application/pdf': 'pdf',
  'text/plain': 'text',
  'audio/mpeg': 'audio',
  'audio/mp3': 'audio',
  'audio/wav': 'audio',
  'audio/wave': 'audio',
  'audio/x-wav': 'audio',
  'audio/mp4': 'audio',
  'audio/m4a': 'audio',
  'audio/x-m4a': 'audio',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/webm': 'video',
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/gif': 'image',
  'image/bmp': 'image',
  'image/x-ms-bmp': 'image',
  'image/webp': 'image',
  'image/svg+xml': 'image',
  'application/msword': 'word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'word',
};

const BY_EXTENSION: Readonly<Record<string, PreviewKind>> = {
  pdf: 'pdf',
  txt: 'text',
  mp3: 'audio',
  wav: 'audio',
  m4a: 'audio',
  mp4: 'video',
  mov: 'video',
  webm: 'video',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  bmp: 'image',
  webp: 'image',
  svg: 'image',
  doc: 'word',
  docx: 'word',
};

/** Lower-case extension of `name` without the dot ('' when none, or for a name like '.env'). */
export function extensionOf(name: string | null | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The view for a file: its mime type decides when it names a previewed type, else its extension. */
export function detectKind(file: { mimeType: string | null; extension: string }): PreviewKind {
  const mime = (file.mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return BY_MIME[mime] ?? BY_EXTENSION[file.extension.toLowerCase()] ?? 'unsupported';
}

/**
 * SPEC 2: what the unsupported screen says under 'Unsupported File Type': 'Preview is not
 * available for .{ext} files', or 'Preview is not available for this file' without an extension.
 */
export function unsupportedText(extension: string): string {
  return `Preview is not available for ${extension ? `.${extension} files` : 'this file'}`;
}
