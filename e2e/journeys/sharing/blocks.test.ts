/**
 * Blocked accounts (issue 21, finding 5; docs/protocol.md "Blocked accounts"): B blocks A from
 * A's shared folder's menu on /shared, and every share of A's leaves the list while another
 * sharer's stays; a share A makes meanwhile does not appear; Profile lists A under "Blocked
 * accounts", and Unblock brings A's shares back, the one made meanwhile too.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, type ApiSession } from '../../support/files.ts';
import { apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 180_000;
/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app. */
const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};
const suite = browserSuite({ timeoutMs: SLOW, server: { env: webDist } });

let sharer: TestUser;
let other: TestUser;
let recipient: TestUser;
let sharerSession: ApiSession;

const body = (page: Page) => page.locator('.browser__body');
const row = (page: Page, name: string) => body(page).getByRole('button', { name, exact: true });

async function apiBlocks(session: ApiSession): Promise<string[]> {
  const response = await fetch(`${session.baseUrl}/api/blocks`, { headers: { cookie: session.cookie } });
  return ((await response.json()) as { blocks: Array<{ userId: string }> }).blocks.map((block) => block.userId);
}

describe.skipIf(skipWithoutBrowser)('blocked accounts', () => {
  beforeAll(async () => {
    [sharer, other, recipient] = [
      await createUser(suite.server.url),
      await createUser(suite.server.url),
      await createUser(suite.server.url),
    ];
    sharerSession = await apiLogin(suite.server.url, sharer);
    const otherSession = await apiLogin(suite.server.url, other);
    const recipientKeysForSharer = await publicUser(sharerSession, recipient.id);
    const recipientKeysForOther = await publicUser(otherSession, recipient.id);
    for (const name of ['Flood 1', 'Flood 2'])
      await apiShareWithUser(sharerSession, await apiCreateFolder(sharerSession, null, name), recipientKeysForSharer, false);
    await apiShareWithUser(otherSession, await apiCreateFolder(otherSession, null, 'Welcome'), recipientKeysForOther, false);
  }, SLOW);

  test(
    "block a sharer from /shared: their shares go, others' stay; Profile's Unblock brings them back",
    async () => {
      const page = await suite.newBrowser();
      await loginViaUi(page, suite.server.url, recipient);
      await page.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' }).click();
      await row(page, 'Flood 1').waitFor();
      await row(page, 'Welcome').waitFor();

      await page.getByRole('button', { name: 'Actions for Flood 1' }).first().click();
      await page.getByRole('menuitem', { name: 'Block sharer' }).click();
      await page.getByText(`Blocked ${sharer.username}`).first().waitFor();
      await row(page, 'Flood 1').waitFor({ state: 'detached' });
      expect(await row(page, 'Flood 2').count()).toBe(0);
      await row(page, 'Welcome').waitFor();
      const recipientSession = await apiLogin(suite.server.url, recipient);
      expect(await apiBlocks(recipientSession)).toEqual([sharer.id]);

      // A share made while blocked is taken (the sharer is not told) and stays hidden.
      const keys = await publicUser(sharerSession, recipient.id);
      await apiShareWithUser(sharerSession, await apiCreateFolder(sharerSession, null, 'Meanwhile'), keys, false);
      await page.reload();
      await row(page, 'Welcome').waitFor();
      expect(await row(page, 'Meanwhile').count()).toBe(0);

      // The other sharer's menu offers the block too; the recipient's own items never do (not listed here).
      await page.getByRole('button', { name: 'Actions for Welcome' }).first().click();
      await page.getByRole('menuitem', { name: 'Block sharer' }).waitFor();
      await page.keyboard.press('Escape');

      await page.goto(`${suite.server.url}/profile`);
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Blocked accounts' }) });
      await section.getByText(sharer.username).waitFor();
      await section.getByRole('button', { name: `Unblock ${sharer.username}` }).click();
      await section.getByText('You have not blocked anyone.').waitFor();
      expect(await apiBlocks(recipientSession)).toEqual([]);

      await page.goto(`${suite.server.url}/shared`);
      for (const name of ['Flood 1', 'Flood 2', 'Meanwhile', 'Welcome']) await row(page, name).waitFor();
    },
    SLOW,
  );
});
