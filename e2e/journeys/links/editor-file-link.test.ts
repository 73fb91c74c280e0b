/**
 * An editor link to one file (issue 22; docs/protocol.md "Who may do what"): the owner shares a
 * single file by an editor link. Its holder, anonymous in Chromium, may rename the file (the
 * owner then reads the new name under the file's key) but never move or delete it: the menu leaves
 * them out, the Delete key does nothing, and the server refuses the call with the same words. A viewer
 * link to the same file changes nothing. One rule, @sealbox/rules `changeRefusal`, on both sides.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { decryptName, toBase64Url } from '@sealbox/crypto';
import { LINKED_ITEM_TEXT } from '@sealbox/rules';
import { createUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });

let owner: ApiSession;
let drafts: ApiFolder;
let plan: ApiFolder;

/** A link to `plan`, editor or viewer; its URL carries the file's key in the fragment. */
async function planLink(edit: boolean): Promise<{ id: string; url: string }> {
  const request = { type: 'link', id: plan.id, expires: 0, edit };
  const headers = { cookie: owner.cookie, 'content-type': 'application/json' };
  const made = await fetch(`${owner.baseUrl}/api/share`, { method: 'POST', headers, body: JSON.stringify(request) });
  expect(made.status).toBe(201);
  const { linkId } = (await made.json()) as { linkId: string };
  return { id: linkId, url: `${suite.server.url}/share?linkId=${linkId}#${toBase64Url(plan.key)}` };
}

/** The item menu of `name`, opened; each of its actions by name. */
async function openMenu(page: Page, name: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  const action = (label: string) => page.getByRole('menuitem', { name: new RegExp(`^${label}`) });
  await action('Info').waitFor();
  return action;
}

/** The name the owner reads for `plan`, opened with its key. */
async function ownersName(): Promise<string> {
  const listing = await fetch(`${owner.baseUrl}/api/file?id=${drafts.id}`, { headers: { cookie: owner.cookie } });
  const { files } = (await listing.json()) as { files: Array<{ id: string; encryptedFileName: string; nameNonce: string }> };
  const row = files.find((file) => file.id === plan.id)!;
  return decryptName(plan.key, plan.id, row.encryptedFileName, row.nameNonce);
}

describe.skipIf(skipWithoutBrowser)('an editor link to one file', () => {
  beforeAll(async () => {
    owner = await apiLogin(suite.server.url, await createUser(suite.server.url));
    drafts = await apiCreateFolder(owner, null, 'Drafts');
    plan = await apiUploadFile(owner, drafts, 'plan.txt', new TextEncoder().encode('Step one.\n'), 'text/plain');
  }, SLOW);

  test(
    'renames the file; never moves or deletes it: the menu leaves them out, the server refuses them',
    async () => {
      const link = await planLink(true);
      const page = await suite.newBrowser();
      await page.goto(link.url);
      const body = page.locator('.browser__body');
      await body.getByText('plan.txt').first().waitFor();

      const action = await openMenu(page, 'plan.txt');
      expect(await action('Rename').getAttribute('aria-disabled')).not.toBe('true');
      // A link's page offers only what the link allows (docs/web-files.md "The link visitor's page").
      for (const refused of ['Move', 'Delete', 'Share']) expect(await action(refused).count()).toBe(0);
      await action('Rename').click();
      const rename = page.getByRole('dialog', { name: 'Rename file' });
      await rename.getByLabel('New name').fill('plan v2.txt');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await rename.waitFor({ state: 'detached' });
      await body.getByText('plan v2.txt').first().waitFor();
      expect(await ownersName()).toBe('plan v2.txt');

      // The Delete key asks nothing for an item that may not be deleted.
      await body
        .getByText('plan v2.txt')
        .first()
        .click({ modifiers: ['ControlOrMeta'] });
      await page.keyboard.press('Delete');
      await Bun.sleep(300);
      expect(await page.getByRole('dialog', { name: /^Delete/ }).count()).toBe(0);

      // The server holds to the same rule, in the same words.
      const refused = await fetch(`${suite.server.url}/api/file/${plan.id}?linkId=${link.id}`, { method: 'DELETE' });
      expect([refused.status, ((await refused.json()) as { message: string }).message]).toEqual([403, LINKED_ITEM_TEXT]);
      await body.getByText('plan v2.txt').first().waitFor();
    },
    SLOW,
  );

  test(
    'a viewer link to the same file renames nothing',
    async () => {
      const page = await suite.newBrowser();
      await page.goto((await planLink(false)).url);
      await page.locator('.browser__body').getByText('plan v2.txt').first().waitFor();
      const action = await openMenu(page, 'plan v2.txt');
      for (const refused of ['Rename', 'Move', 'Delete', 'Share']) expect(await action(refused).count()).toBe(0);
      expect(await action('Download').count()).toBe(1);
    },
    SLOW,
  );
});
