/**
 * Expired links stay listed (issue 23, docs/web-files.md "Expired links stay listed"): a link
 * whose expiry passes no longer opens, but its owner still finds it in the Share dialog under
 * 'Expired links', with when it expired and when it goes, and renews it (the visitor's page opens
 * again) or deletes it. Time is moved on for the link alone: its expiry is set in the past in the
 * server's SQLite database, as the clock passing it would leave it. Screenshots at 375 and 1280 px,
 * light and dark, and the axe check.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { toBase64Url } from '@sealbox/crypto';
import { checkA11y } from '../../support/axe.ts';
import { apiUploadFile, apiUserWithFolder, ok, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { openShare, toastText } from '../../support/share-dialog.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });

let owner: ApiSession;
let user: Awaited<ReturnType<typeof apiUserWithFolder>>['user'];
let trip: ApiFolder;

async function newLink(seconds: number): Promise<string> {
  const answer = await ok(
    await fetch(`${owner.baseUrl}/api/share`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'link', id: trip.id, expires: seconds, password: null, edit: false }),
    }),
    'share link',
  );
  return answer.linkId as string;
}

/** The link's expiry, `ago` milliseconds in the past, as if that much time had gone by. */
function expire(linkId: string, ago: number): void {
  const db = new Database(join(suite.server.dataDir, 'sealbox.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.query('UPDATE links SET expires_at = ? WHERE id = ?').run(Date.now() - ago, linkId);
  } finally {
    db.close();
  }
}

const linkPage = (linkId: string) => `${suite.server.url}/share?linkId=${linkId}#${toBase64Url(trip.key)}`;

async function visitorSees(page: Page, linkId: string, what: 'folder' | 'gone'): Promise<void> {
  // From elsewhere: the same URL again would only be a change of its fragment, not a new load.
  await page.goto('about:blank');
  await page.goto(linkPage(linkId));
  if (what === 'folder') await page.locator('.browser__body').getByText('notes.txt').first().waitFor();
  else await page.getByText('This link does not exist, has expired or was removed.').waitFor();
}

describe.skipIf(skipWithoutBrowser)('expired links stay listed', () => {
  beforeAll(async () => {
    const made = await apiUserWithFolder(suite.server.url, 'Trip 2026');
    ({ session: owner, user, folder: trip } = made);
    await apiUploadFile(owner, trip, 'notes.txt', new TextEncoder().encode('Ferry at 7:40.\n'), 'text/plain');
  }, SLOW);

  test(
    'an expired link is listed as expired, renewed (it opens again) or deleted',
    async () => {
      const renewed = await newLink(3600);
      const removed = await newLink(3600);
      const visitor = await suite.newBrowser({ expectHttpErrors: [{ status: 404, path: `/api/shared/${renewed}` }] });
      await visitorSees(visitor, renewed, 'folder');
      // Off the link before it expires: a refresh of the open folder in flight would get its 404.
      await visitor.goto('about:blank');
      const ago = 2 * 86_400_000;
      expire(renewed, ago);
      expire(removed, ago);
      await visitorSees(visitor, renewed, 'gone');

      const page = await suite.signedIn(user);
      const dialog = await openShare(page, 'Trip 2026');
      await dialog.getByRole('tab', { name: 'Links' }).click();
      const expired = dialog.getByRole('list', { name: 'Expired links' });
      await expired.waitFor();
      expect(await dialog.getByText('No active links').count()).toBe(1);
      const first = expired.getByRole('listitem', { name: 'Link 1' });
      const day = (at: number) => new Date(at).toLocaleDateString('en-US', { dateStyle: 'medium' });
      const expiredAt = Date.now() - ago;
      expect(await first.textContent()).toContain(`Expired ${day(expiredAt)}, removed ${day(expiredAt + 30 * 86_400_000)}`);
      // Nothing that needs a working link: no Copy, no role, no password.
      expect(await first.getByRole('button', { name: /Copy|password/ }).count()).toBe(0);
      expect(await checkA11y(page, 'share dialog with expired links')).toBe('');
      await saveScreenshots(page, 'share-expired-links', { fullPage: false });

      // Renew: a new expiry, and the link opens again for its visitor.
      await first.getByRole('button', { name: 'Renew Link 1' }).click();
      const form = dialog.getByRole('form', { name: 'New expiry for Link 1' });
      await form.getByLabel('Expires after (Link 1)').fill('2');
      await form.getByLabel('Unit (Link 1)').selectOption('weeks');
      expect(await checkA11y(page, 'renew form')).toBe('');
      await saveScreenshots(page, 'share-renew-link', { fullPage: false });
      await form.getByRole('button', { name: 'Renew' }).click();
      await toastText(page, 'Link 1 renewed').waitFor();
      const active = dialog.getByRole('list', { name: 'Active links' });
      await active.getByRole('listitem', { name: 'Link 1' }).waitFor();
      const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toLocaleDateString('en-US', { dateStyle: 'medium' });
      expect(await active.getByRole('listitem', { name: 'Link 1' }).textContent()).toContain(inTwoWeeks);
      await visitorSees(visitor, renewed, 'folder');

      // An active link's expiry changes in place the same way.
      await active.getByRole('button', { name: 'Change expiry of Link 1' }).click();
      const change = dialog.getByRole('form', { name: 'New expiry for Link 1' });
      await change.getByLabel('Expires after (Link 1)').fill('3');
      expect(await checkA11y(page, 'change expiry form')).toBe('');
      await saveScreenshots(page, 'share-change-expiry', { fullPage: false });
      await change.getByRole('button', { name: 'Save' }).click();
      await toastText(page, "Link 1's expiry changed").waitFor();

      // Delete: it goes from the list, for good.
      await expired.getByRole('button', { name: 'Delete Link 2' }).click();
      await toastText(page, 'Link deleted').waitFor();
      await dialog.getByRole('list', { name: 'Expired links' }).waitFor({ state: 'detached' });
      const left = await ok(
        await fetch(`${owner.baseUrl}/api/shared/${trip.id}/links`, { headers: { cookie: owner.cookie } }),
        'links',
      );
      expect((left as Array<{ linkId: string }>).map((l) => l.linkId)).toEqual([renewed]);
    },
    SLOW,
  );
});
