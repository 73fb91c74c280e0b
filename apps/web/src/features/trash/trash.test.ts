import { describe, expect, it } from 'vitest';
import { ME, itemView } from '../../test/item-view.ts';
import type { ItemView } from '../../model/items.ts';
import { deleteFate, deleteFateText } from '../files/dialogs.tsx';
import { restoreText } from '../files/modes/trash.ts';
import { inTrashedFolder, pathAbove } from './api.ts';

/** A file of ME's with its own id (the cases below hold several). */
const item = (over: Partial<ItemView> = {}): ItemView => itemView({ id: crypto.randomUUID(), ...over });

describe('where a trashed item was', () => {
  it('names the decrypted path from My Files down, and stops at a gap or a loop', () => {
    const photos = item({ id: 'p', name: 'Photos', isDirectory: true });
    const year = item({ id: 'y', name: '2024', isDirectory: true, parentId: 'p' });
    const folders = new Map([photos, year].map((folder) => [folder.id, folder]));
    expect(pathAbove(item({ parentId: 'y' }), folders)).toBe('My Files / Photos / 2024');
    expect(pathAbove(item(), folders)).toBe('My Files');
    expect(pathAbove(item({ parentId: 'gone' }), folders)).toBe('My Files / …');
    const loop = new Map([['l', item({ id: 'l', name: 'L', isDirectory: true, parentId: 'l' })]]);
    expect(pathAbove(item({ parentId: 'l' }), loop).split(' / ').length).toBeLessThanOrEqual(66);
  });
});

describe('whether its folder can take it back', () => {
  it('not when that folder or one above it is in the trash itself', () => {
    const top = item({ id: 't', isDirectory: true });
    const mid = item({ id: 'm', isDirectory: true, parentId: 't' });
    const folders = new Map([top, mid].map((folder) => [folder.id, folder]));
    const file = item({ parentId: 'm' });
    expect(inTrashedFolder(file, folders, new Set())).toBe(false);
    expect(inTrashedFolder(file, folders, new Set(['t']))).toBe(true);
    expect(inTrashedFolder(file, folders, new Set(['m']))).toBe(true);
    expect(inTrashedFolder(item(), folders, new Set(['t']))).toBe(false);
  });
});

describe('what a delete says it does', () => {
  it('to the own trash, to the owner trash, or for good', () => {
    const mine = item();
    const theirs = item({ ownerId: 'them' });
    const trashed = item({ trashed: { at: 1, by: ME, from: 'My Files', folderGone: false } });
    expect(deleteFate([mine], ME, 30)).toEqual({ kind: 'trash', days: 30 });
    expect(deleteFate([mine, theirs], ME, 30)).toEqual({ kind: 'owner-trash', days: 30 });
    expect(deleteFate([mine], ME, 0)).toEqual({ kind: 'forever' });
    expect(deleteFate([mine], ME, undefined)).toEqual({ kind: 'forever' });
    expect(deleteFate([trashed], ME, 30)).toEqual({ kind: 'forever' });
    expect(deleteFateText({ kind: 'trash', days: 30 }, false, true)).toBe(
      ' will be moved to the trash, with everything inside it. You can restore it from there for 30 days.',
    );
    expect(deleteFateText({ kind: 'owner-trash', days: 7 }, true, false)).toBe(
      ' will be deleted. Their owner can restore them from their trash for 7 days.',
    );
    expect(deleteFateText({ kind: 'forever' }, false, false)).toBe(' will be deleted permanently. This cannot be undone.');
  });
});

describe('the restore toast', () => {
  it('says what went back, where, and what did not', () => {
    const one = [item({ name: 'x.txt' })];
    expect(restoreText({ restored: 1, toTop: 0, skipped: 0, failed: 0 }, one)).toEqual({ text: 'Restored x.txt.', ok: true });
    const three = [item(), item(), item()];
    expect(restoreText({ restored: 2, toTop: 1, skipped: 1, failed: 0 }, three)).toEqual({
      text: 'Restored 2 of 3 items. 1 item went to My Files: the folder was gone. 1 left in the trash.',
      ok: true,
    });
    expect(restoreText({ restored: 0, toTop: 0, skipped: 0, failed: 3 }, three).ok).toBe(false);
  });
});
