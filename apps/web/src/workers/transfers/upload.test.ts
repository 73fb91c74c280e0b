// @vitest-environment node
/**
 * A new version's upload as the crypto worker seals it (docs/protocol.md "Versions"), with the real
 * crypto package; the key ring and the server are stubbed. The file's own K, never a new one; a
 * fresh fileNonce each time; the mime sealed for the file's id; and metadata with only the fields
 * the server accepts for a version.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDecryptStream, decryptMime, fromBase64, newItemId, newItemKey } from '@sealbox/crypto';
import { OWN_SCOPE } from '../../model/browse-scope.ts';

const fileId = newItemId();
const fileKey = newItemKey();
const ringKey = new Uint8Array(fileKey);

vi.mock('../key-rings.ts', () => ({
  itemKey: (_scope: unknown, id: string) => {
    if (id !== fileId) throw new Error('no key');
    return ringKey;
  },
  wrappingKeyFor: () => {
    throw new Error('a version wraps no key');
  },
}));

const posted: Array<{ metadata: Record<string, unknown>; file: Blob | undefined }> = [];
vi.mock('./server.ts', () => ({
  postUpload: async (_scope: unknown, metadata: Record<string, unknown>, file: Blob | undefined) => {
    posted.push({ metadata, file });
    return { id: metadata.versionOf ?? metadata.id };
  },
  completeUpload: vi.fn(),
  sendPart: vi.fn(),
}));

vi.mock('./resume.ts', () => ({ currentUserId: async () => 'me', forgetUpload: vi.fn(), tryResume: vi.fn() }));

const { uploadFile } = await import('./upload.ts');

async function opened(cipher: Blob, nonce: Uint8Array): Promise<string> {
  return new Response(cipher.stream().pipeThrough(createDecryptStream(fileKey, nonce))).text();
}

beforeEach(() => {
  posted.length = 0;
});

describe('a new version, sealed in the worker', () => {
  it("uses the file's K and a fresh nonce each time, seals the mime for its id, sends only a version's fields", async () => {
    const request = (text: string) => ({
      file: new File([text], 'picked-name.txt', { type: 'text/plain' }),
      parentId: 'folder',
      name: 'report.txt',
      scope: OWN_SCOPE,
      versionOf: fileId,
    });
    const first = await uploadFile(request('second draft'), undefined);
    await uploadFile(request('third draft'), undefined);
    expect(first.id).toBe(fileId);

    const [a, b] = posted;
    expect(Object.keys(a!.metadata).sort()).toEqual(['encryptedMimeType', 'fileNonce', 'mimeTypeNonce', 'size', 'versionOf']);
    expect(a!.metadata.versionOf).toBe(fileId);
    expect(a!.metadata.size).toBe(a!.file!.size);
    expect(a!.metadata.fileNonce).not.toBe(b!.metadata.fileNonce);
    const mime = await decryptMime(fileKey, fileId, String(a!.metadata.encryptedMimeType), String(a!.metadata.mimeTypeNonce));
    // The type as this runtime's File gives it ('text/plain', or with a charset in some runtimes).
    expect(mime).toBe(request('').file.type);
    expect(mime.startsWith('text/plain')).toBe(true);
    expect(await opened(a!.file!, fromBase64(String(a!.metadata.fileNonce)))).toBe('second draft');
    expect(await opened(b!.file!, fromBase64(String(b!.metadata.fileNonce)))).toBe('third draft');
    // The ring keeps its key: the upload wiped only its own copy.
    expect(ringKey).toEqual(fileKey);
  });

  it('a new file still gets a new id and key, wrapped under its folder', async () => {
    await expect(uploadFile({ file: new File(['x'], 'x.txt'), parentId: 'folder', scope: OWN_SCOPE }, undefined)).rejects.toThrow(
      'a version wraps no key',
    );
  });
});
