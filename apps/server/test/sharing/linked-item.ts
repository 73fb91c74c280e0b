import { describe, expect, test } from 'bun:test';
import { toBase64 } from '@sealbox/crypto';
import { LINKED_ITEM_TEXT } from '@sealbox/rules';
import { postFile, postFolder, type FilesHarness } from '../files/harness.ts';
import { anonymous, makeLink, withLink, type KeyedUser } from './harness.ts';

const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));

/**
 * The item an editor link shares (docs/protocol.md "Who may do what", @sealbox/rules
 * `changeRefusal`): its holder renames it, a folder or a single file alike, but never moves or
 * deletes it; that stays the owner's, since it would end the link for every holder.
 */
export function linkedItemRules(
  context: () => { h: FilesHarness; alice: KeyedUser; unchanged: (fn: () => Promise<void>) => Promise<void> },
) {
  describe('the item an editor link shares', () => {
    test('is renamed through the link, never moved or deleted through it (403, nothing changes)', async () => {
      const { h, alice, unchanged } = context();
      const folder = await postFolder(alice, null, 'linked folder');
      const inside = await postFolder(alice, folder, 'inside');
      const file = await postFile(alice, folder, 100, 21, 'linked file');
      for (const item of [file, folder]) {
        const linkId = await makeLink(alice, item, { edit: true });
        const at = withLink(`/api/file/${item.id}`, linkId);
        // Anonymous or signed in, a holder acts with the link's permission.
        for (const holder of [anonymous(h), alice.browser]) {
          expect((await holder.put(at, { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) })).status).toBe(200);
          await unchanged(async () => {
            const moved = await holder.put(at, { type: 'move', parentId: inside.id, encryptedKey: b64(48), keyNonce: b64(12) });
            const deleted = await holder.call('DELETE', at);
            expect([moved.status, moved.body.message, deleted.status, deleted.body.message]).toEqual([
              403,
              LINKED_ITEM_TEXT,
              403,
              LINKED_ITEM_TEXT,
            ]);
          });
        }
      }
      // Below the linked folder the link moves and deletes as an editor does; the owner deletes the rest.
      const folderLink = await makeLink(alice, folder, { edit: true });
      const moved = { type: 'move', parentId: inside.id, encryptedKey: b64(48), keyNonce: b64(12) };
      expect((await anonymous(h).put(withLink(`/api/file/${file.id}`, folderLink), moved)).status).toBe(200);
      expect((await anonymous(h).call('DELETE', withLink(`/api/file/${file.id}`, folderLink))).status).toBe(204);
      expect((await alice.browser.call('DELETE', `/api/file/${folder.id}`)).status).toBe(204);
    });
  });
}
