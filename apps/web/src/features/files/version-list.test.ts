import { describe, expect, it } from 'vitest';
import { deletesVersions, showsVersions, versionEntries } from './version-list.ts';

const current = { modifiedAt: 400, size: 40, uploaderId: 'me' };
const version = (id: string, createdAt: number, replacedAt: number) => ({
  id,
  size: createdAt / 10,
  uploaderId: createdAt === 100 ? null : 'bob',
  createdAt,
  replacedAt,
});

describe('version list', () => {
  it('lists the current content (as the answer saw it) first, then earlier versions newest first, whatever order they came in', () => {
    const entries = versionEntries({
      current,
      versions: [version('v1', 100, 200), version('v3', 300, 400), version('v2', 200, 300)],
    });
    expect(entries.map((e) => [e.versionId, e.at, e.size, e.uploaderId])).toEqual([
      [null, 400, 40, 'me'],
      ['v3', 300, 30, 'bob'],
      ['v2', 200, 20, 'bob'],
      ['v1', 100, 10, null],
    ]);
  });

  it('a file without versions lists only its current content', () => {
    expect(versionEntries({ current, versions: [] })).toEqual([{ versionId: null, at: 400, size: 40, uploaderId: 'me' }]);
  });

  it('shows versions to whoever may edit a decrypted file outside the trash; deletes for the owner only', () => {
    const item = { isDirectory: false, editPermission: true, decrypted: true };
    expect(showsVersions(item)).toBe(true);
    expect(showsVersions({ ...item, editPermission: false })).toBe(false);
    expect(showsVersions({ ...item, isDirectory: true })).toBe(false);
    expect(showsVersions({ ...item, decrypted: false })).toBe(false);
    expect(showsVersions({ ...item, trashed: { at: 1, by: 'me', from: 'My Files', folderGone: false } })).toBe(false);
    expect(deletesVersions({ ownerId: 'me' }, 'me')).toBe(true);
    expect(deletesVersions({ ownerId: 'alice' }, 'me')).toBe(false);
    expect(deletesVersions({ ownerId: 'me' }, undefined)).toBe(false);
  });
});
