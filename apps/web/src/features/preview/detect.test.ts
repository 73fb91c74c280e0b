import { describe, expect, it } from 'vitest';
import { detectKind, extensionOf, unsupportedText } from './detect.ts';

const kind = (mimeType: string | null, extension = '') => detectKind({ mimeType, extension });

describe('detectKind', () => {
  it('knows every extension docs/product.md "Screens" names', () => {
    const expected: Record<string, string> = {
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
    for (const [extension, k] of Object.entries(expected)) expect(kind(null, extension)).toBe(k);
    expect(kind('', 'PNG')).toBe('image');
  });

  it('goes by the mime type first', () => {
    expect(kind('application/pdf', 'bin')).toBe('pdf');
    expect(kind('text/plain; charset=utf-8', '')).toBe('text');
    expect(kind('image/svg+xml', '')).toBe('image');
    expect(kind('video/quicktime', '')).toBe('video');
    expect(kind('audio/mpeg', '')).toBe('audio');
    expect(kind('application/vnd.openxmlformats-officedocument.wordprocessingml.document', '')).toBe('word');
    expect(kind('IMAGE/PNG', '')).toBe('image');
  });

  it('falls back to the extension when the mime type names nothing previewed', () => {
    expect(kind('application/octet-stream', 'txt')).toBe('text');
    expect(kind('image/tiff', 'png')).toBe('image');
  });

  it('leaves anything else unsupported (html and unnamed image types too)', () => {
    expect(kind('text/html', 'html')).toBe('unsupported');
    expect(kind('application/zip', 'zip')).toBe('unsupported');
    expect(kind('image/tiff', 'tiff')).toBe('unsupported');
    expect(kind(null, '')).toBe('unsupported');
  });
});

describe('extensionOf and the unsupported text', () => {
  it('takes the last extension, lower-case, and none for dot files', () => {
    expect(extensionOf('a.tar.GZ')).toBe('gz');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.env')).toBe('');
    expect(extensionOf('trailing.')).toBe('');
    expect(extensionOf(null)).toBe('');
  });

  it('says docs/product.md "Screens" texts', () => {
    expect(unsupportedText('zip')).toBe('Preview is not available for .zip files');
    expect(unsupportedText('')).toBe('Preview is not available for this file');
  });
});
