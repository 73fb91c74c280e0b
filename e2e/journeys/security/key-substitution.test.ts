/**
 * A hostile server substitutes a folder's key (issue 21, finding 1; docs/protocol.md "Key rings"):
 * together with a second account it controls, it lists the victim's OWN folder F as shared with
 * them by a grant that really is signed by that account (K_att wrapped to the victim's public key,
 * F's name sealed under K_att), or hands the signed-in victim a link whose answer names F.
 * If the browser took K_att as F's key, everything the victim then creates, uploads or moves into
 * F would be wrapped under a key the attacker holds. The test holds K_att and tries: on the
 * server, no new child of F unwraps under it, and every one unwraps under F's real K.
 *
 * Route interception (support/hostile.ts) rewrites the real server's answers on their way to the
 * victim's page and its crypto worker; the attacker's grant and link are made through the API.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { encryptName, newItemKey, signGrant, toBase64Url, unwrapItemKey, wrapKeyForUser } from '@sealbox/crypto';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import {
  apiCreateFolder,
  apiLogin,
  apiUploadFile,
  createFolderViaUi,
  folderLink,
  type ApiFolder,
  type ApiSession,
} from '../../support/files.ts';
import type { ListedItem } from '../../support/hostile.ts';
import { saveScreenshots } from '../../support/screenshots.ts';
import { publicUser } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, waitForSummary } from '../../support/transfers.ts';

const SLOW = 150_000;
const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', ...webDist } } });

const PLANTED = 'Planted by the server';
/** The mark of a share that did not verify (apps/web/src/features/files/ItemViews.tsx). */
const UNVERIFIED = 'Unverified share: its grant is not signed by the keys you know for the sharer';

let attacker: ApiSession;
let attackerFolder: ApiFolder;

const body = (page: Page) => page.locator('.browser__body');

interface Victim {
  user: TestUser;
  session: ApiSession;
  /** The victim's own folder F (its real K). */
  folder: ApiFolder;
  /** Another folder of theirs, holding a file to move into F. */
  inbox: ApiFolder;
}

async function newVictim(tag: string): Promise<Victim> {
  const user = await createUser(suite.server.url);
  const session = await apiLogin(suite.server.url, user);
  const folder = await apiCreateFolder(session, null, `Holiday ${tag}`);
  const inbox = await apiCreateFolder(session, null, `Inbox ${tag}`);
  await apiUploadFile(session, inbox, `loose-${tag}.txt`, new TextEncoder().encode(`moved by ${tag}\n`), 'text/plain');
  return { user, session, folder, inbox };
}

/** F as the server lists it to its owner (the form a hostile server re-serves). */
async function serverForm(victim: Victim): Promise<ListedItem> {
  const response = await fetch(`${victim.session.baseUrl}/api/file?id=${victim.folder.id}&depth=1&limit=1`, {
    headers: { cookie: victim.session.cookie },
  });
  const answer = (await response.json()) as { root: ListedItem };
  return answer.root;
}

/** F's children on the server, with whether each one's key unwraps under `real` and under `forged`. */
async function childKeys(victim: Victim, forged: Uint8Array) {
  const response = await fetch(`${victim.session.baseUrl}/api/file?id=${victim.folder.id}&depth=1&limit=1000`, {
    headers: { cookie: victim.session.cookie },
  });
  const answer = (await response.json()) as { files: ListedItem[] };
  const opens = (key: Uint8Array, item: ListedItem) =>
    unwrapItemKey(key, item.id, item.encryptedKey, item.keyNonce!).then(
      () => true,
      () => false,
    );
  return Promise.all(
    answer.files.map(async (item) => ({
      id: item.id,
      real: await opens(victim.folder.key, item),
      forged: await opens(forged, item),
    })),
  );
}

const sidebar = (page: Page, name: 'My Files' | 'Shared with me') =>
  page.locator('#files-sidebar').getByRole('link', { name, exact: true });

/** The three children made in F (a folder, an upload, a moved file) unwrap under F's real K, none under `forged`. */
async function expectWrappedUnderRealKey(victim: Victim, forged: Uint8Array): Promise<void> {
  const children = await childKeys(victim, forged);
  expect(children.length).toBe(3);
  expect(children.filter((child) => child.forged)).toEqual([]);
  expect(children.every((child) => child.real)).toBe(true);
}

/**
 * In the app, without reloading (so the crypto worker and its keys are the same as when the
 * forged key arrived): from My Files, a file moved into F from another folder, then in F a folder
 * made and a file uploaded.
 */
async function actInsideF(page: Page, tag: string): Promise<void> {
  await sidebar(page, 'My Files').click();
  await folderLink(page, `Inbox ${tag}`).click();
  await body(page).getByText(`loose-${tag}.txt`, { exact: true }).first().waitFor();
  await page
    .getByRole('button', { name: `Actions for loose-${tag}.txt` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Move' }).click();
  const move = page.getByRole('dialog', { name: `Move loose-${tag}.txt` });
  await move.getByRole('button', { name: `Holiday ${tag}`, exact: true }).click();
  await move.getByRole('button', { name: 'Move here' }).click();
  await move.waitFor({ state: 'detached' });

  await sidebar(page, 'My Files').click();
  await folderLink(page, `Holiday ${tag}`).click();
  await body(page).getByText(`loose-${tag}.txt`, { exact: true }).first().waitFor();
  await createFolderViaUi(page, `made-in-F-${tag}`);
  await pickFiles(page, [{ name: `uploaded-${tag}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`uploaded by ${tag}\n`) }]);
  await waitForSummary(page, '1 file uploaded successfully!');
}

/** Goes to `url` inside the app (the router follows history), keeping the page and its workers. */
async function navigateInApp(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

describe.skipIf(skipWithoutBrowser)('a server substituting the key of the victim’s own folder', () => {
  beforeAll(async () => {
    const user = await createUser(suite.server.url);
    attacker = await apiLogin(suite.server.url, user);
    attackerFolder = await apiCreateFolder(attacker, null, 'Mallory bait');
  }, SLOW);

  test(
    'a grant signed by another real account for the victim’s folder: nothing made, uploaded or moved into it opens under the attacker’s key',
    async () => {
      const victim = await newVictim('grantee');
      const forged = newItemKey();
      const me = await publicUser(attacker, victim.session.userId);
      const encryptedKey = await wrapKeyForUser(me.publicKey, forged);
      const signature = await signGrant(attacker.keys.signingPrivateKey, {
        sharerId: attacker.userId,
        recipientId: victim.session.userId,
        itemId: victim.folder.id,
        encryptedKey,
        edit: true,
      });
      const real = await serverForm(victim);
      const sealed = await encryptName(forged, victim.folder.id, PLANTED);
      // The server lists F in the victim's /shared, claiming the attacker owns it, with a grant
      // the attacker really signed: every check a grant can pass on its own, it passes.
      const entry = {
        ...real,
        ...sealed,
        ownerId: attacker.userId,
        editPermission: true,
        grant: {
          type: 'user',
          itemId: victim.folder.id,
          userId: victim.session.userId,
          editPermission: true,
          encryptedKey,
          signature,
          sharerId: attacker.userId,
          createdAt: Date.now(),
        },
      };

      const page = await suite.newBrowser();
      await page.context().route(
        (url) => url.pathname === '/api/shared',
        async (route) => {
          if (route.request().method() !== 'GET') return route.fallback();
          const response = await route.fetch();
          const answer = (await response.json()) as { files: unknown[] };
          answer.files = [...answer.files, entry];
          await route.fulfill({ response, json: answer });
        },
      );
      // The victim opens My Files (F opens under its real key), then /shared (the forged grant
      // arrives), then acts inside F.
      await loginViaUi(page, suite.server.url, victim.user);
      await folderLink(page, 'Holiday grantee').waitFor();
      await sidebar(page, 'Shared with me').click();
      // The forged entry is listed: refused (not opened, marked unverified), or, without the
      // rule, opened under K_att; the keys on the server tell which after the victim acts.
      await body(page).getByText(PLANTED).or(body(page).getByText('Encrypted directory')).first().waitFor({ timeout: 30_000 });
      const shownPlanted = await body(page).getByText(PLANTED).count();
      const markedUnverified = await body(page).getByRole('img', { name: UNVERIFIED }).count();
      await saveScreenshots(page, 'forged-grant-refused');
      await actInsideF(page, 'grantee');

      await expectWrappedUnderRealKey(victim, forged);
      expect(shownPlanted).toBe(0);
      expect(markedUnverified).toBe(1);
    },
    SLOW,
  );

  test(
    'a link whose answer names the signed-in victim’s folder is refused, and F keeps its key',
    async () => {
      const victim = await newVictim('linked');
      const forged = newItemKey();
      const made = await fetch(`${attacker.baseUrl}/api/share`, {
        method: 'POST',
        headers: { cookie: attacker.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'link', id: attackerFolder.id, expires: 0, password: null, edit: true }),
      });
      expect(made.ok).toBe(true);
      const { linkId } = (await made.json()) as { linkId: string };
      const real = await serverForm(victim);
      const sealed = await encryptName(forged, victim.folder.id, PLANTED);

      const page = await suite.newBrowser();
      const context = page.context();
      // The link's answer names F; its listing is F with a name sealed under the fragment's key.
      await context.route(
        (url) => url.pathname === `/api/shared/${linkId}`,
        async (route) => {
          const response = await route.fetch();
          const answer = (await response.json()) as Record<string, unknown>;
          await route.fulfill({ response, json: { ...answer, itemId: victim.folder.id } });
        },
      );
      await context.route(
        (url) => url.pathname === '/api/file' && url.searchParams.get('linkId') === linkId,
        async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, json: { root: { ...real, ...sealed }, files: [], users: [] } });
        },
      );
      await loginViaUi(page, suite.server.url, victim.user);
      await folderLink(page, 'Holiday linked').waitFor();
      await navigateInApp(page, `/share?linkId=${linkId}#${toBase64Url(forged)}`);
      const refused = page.getByText('This link could not be verified.');
      await refused.or(page.getByText(PLANTED)).first().waitFor({ timeout: 30_000 });
      const wasRefused = await refused.count();
      await saveScreenshots(page, 'forged-link-refused');
      await navigateInApp(page, '/files');
      await page.getByRole('heading', { name: 'My Files' }).waitFor();
      await actInsideF(page, 'linked');

      await expectWrappedUnderRealKey(victim, forged);
      expect(wasRefused).toBe(1);
    },
    SLOW,
  );
});
