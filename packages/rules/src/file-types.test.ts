import { describe, expect, test } from 'bun:test';
import {
  STREAM_TYPES,
  bareMime,
  iconKind,
  imageType,
  previewKind,
  streamType,
  thumbnailKind,
  videoType,
  type IconKind,
} from './file-types.ts';

const file = (mimeType: string | null, extension = '') => ({ mimeType, extension, isDirectory: false });

describe('the one file-type table', () => {
  test('icons: by the mime type family first, then the extension', () => {
    expect(iconKind({ ...file(null), isDirectory: true })).toBe('folder');
    expect(iconKind(file('image/tiff'))).toBe('image');
    expect(iconKind(file('text/html', 'zip'))).toBe('text');
    expect(iconKind(file('application/pdf'))).toBe('pdf');
    const byExtension: Record<string, IconKind> = {
      mkv: 'video',
      m4v: 'video',
      flac: 'audio',
      json: 'text',
      odt: 'document',
      docx: 'document',
      '7z': 'archive',
      exe: 'file',
    };
    for (const [extension, icon] of Object.entries(byExtension)) expect(iconKind(file(null, extension))).toBe(icon);
    // The table is a Map: a name an object would inherit is no type.
    expect(iconKind(file(null, 'constructor'))).toBe('file');
  });

  test('the previewer: a previewed mime type decides, else the extension', () => {
    expect(previewKind(file('audio/m4a'))).toBe('audio');
    expect(previewKind(file('image/jpg', 'jpg'))).toBe('image');
    expect(previewKind(file('image/jpg'))).toBe('unsupported');
    expect(previewKind(file('audio/ogg', 'ogg'))).toBe('unsupported');
    expect(previewKind(file(null, 'm4v'))).toBe('unsupported');
    expect(previewKind(file(null, 'DOCX'))).toBe('word');
  });

  test('thumbnails: raster images and videos, never SVG', () => {
    expect(thumbnailKind(file('image/pjpeg'))).toBe('image');
    expect(thumbnailKind(file('image/x-ms-bmp'))).toBe('image');
    expect(thumbnailKind(file(null, 'm4v'))).toBe('video');
    expect(thumbnailKind(file('image/svg+xml; charset=utf-8'))).toBeNull();
    expect(thumbnailKind(file(null, 'svgz'))).toBeNull();
    expect(thumbnailKind(file('audio/mpeg', 'mp3'))).toBeNull();
    expect([videoType(file(null, 'mov')), videoType(file(null, 'm4v')), videoType(file(null, 'webm'))]).toEqual([
      'video/mp4',
      'video/mp4',
      'video/webm',
    ]);
    expect(videoType(file('VIDEO/WEBM', 'mp4'))).toBe('video/webm');
    expect(videoType(file(null, 'avi'))).toBe('video/mp4');
  });

  test("an image's bytes: its own image type, else its extension's, never another kind", () => {
    expect(imageType(file('image/png; x=y', 'jpg'))).toBe('image/png');
    expect(imageType(file('image/svg+xml'))).toBe('image/svg+xml');
    expect(imageType(file('image/x-ms-bmp', 'bmp'))).toBe('image/bmp');
    expect(imageType(file('text/html', 'svg'))).toBe('image/svg+xml');
    expect(imageType(file('text/html', 'html'))).toBeNull();
  });

  test('streams: media types only, by the mime type or the extension', () => {
    expect([...STREAM_TYPES].sort()).toEqual(
      [
        'audio/aac',
        'audio/mp3',
        'audio/mp4',
        'audio/mpeg',
        'audio/ogg',
        'audio/wav',
        'audio/wave',
        'audio/webm',
        'audio/x-m4a',
        'audio/x-wav',
        'video/mp4',
        'video/ogg',
        'video/quicktime',
        'video/webm',
      ].sort(),
    );
    expect(streamType(file('Audio/Ogg; codecs=opus'))).toBe('audio/ogg');
    expect(streamType(file('audio/m4a', 'm4a'))).toBe('audio/mp4');
    expect(streamType(file('text/html', 'MOV'))).toBe('video/mp4');
    expect(streamType(file('text/html', 'html'))).toBeNull();
    expect(streamType(file(null, 'm4v'))).toBeNull();
  });

  test('a bare mime type has no parameters and one case', () => {
    expect([bareMime(' Text/Plain ; charset=utf-8'), bareMime(null), bareMime(undefined)]).toEqual(['text/plain', '', '']);
  });
});
