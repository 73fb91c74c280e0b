/**
 * The sealed search index of My Files (docs/web-files.md "Search"), in Chromium against the real
 * server: built in the background once the files screen is up (its hint shown while the tree is
 * held back, a search meanwhile going the old way), sealed in IndexedDB with no name readable there, searched
 * without fetching the tree, kept current by a rename from another session, read back after a
 * reload instead of being built again, and deleted at logout.
 */
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, logoutViaNavbar } from '../../support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, apiRename, apiUploadFile, signInToFiles } from '../../support/files.ts';
import { apiShareWithUser, publicUser } from '../../support/sharing.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 240_000;
const FOLDERS = 1500;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });

/** The names of the search index databases this browser holds. */
const indexDatabases = (page: Page) =>
  page.evaluate(async () =>
    (await indexedDB.databases()).map((db) => db.name ?? '').filter((n) => n.startsWith('sealbox-search-')),
  );

/**
 * Everything the index database holds, as text: the clear meta record, the sealed chunks' and
 * names records' bytes, and how many of each.
 */
const indexContents = (page: Page, name: string) =>
  page.evaluate(
    (dbName) =>
      new Promise<{ meta: { treeVersion?: number } | undefined; text: string; chunks: number; names: number }>(
        (resolve, reject) => {
          const open = indexedDB.open(dbName);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const store = db.transaction('index', 'readonly').objectStore('index');
            const all = store.getAll();
            const keys = store.getAllKeys();
            keys.onsuccess = () => {
              db.close();
              const records = all.result as Array<{ sealed?: ArrayBuffer }>;
              const kinds = (keys.result as Array<[string, number | string]>).map((key) => key[1]);
              const sealed = records.filter((r) => r.sealed instanceof ArrayBuffer);
              const text = sealed.map((c) => new TextDecoder('latin1').decode(c.sealed)).join('');
              // The own tree's meta record (keys sort by section: 'own' before 'shared').
              resolve({
                meta: records.find((r) => !(r.sealed instanceof ArrayBuffer)) as { treeVersion?: number },
                text,
                chunks: kinds.filter((kind) => typeof kind === 'number').length,
                names: kinds.filter((kind) => kind === 'names').length,
              });
            };
            keys.onerror = () => reject(keys.error);
          };
        },
      ),
    name,
  );

/** Tree fetches (GET /api/file at depth 20) the page makes from now on. */
function countTreeFetches(page: Page): { count: () => number } {
  let count = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/file' && url.searchParams.get('depth') === '20') count++;
  });
  return { count: () => count };
}

describe.skipIf(skipWithoutBrowser)('search index', () => {
  test(
    'built with a hint, sealed, searched without the tree, kept current, read back, deleted at logout',
    async () => {
      const user = await createUser(suite.server.url);
      const api = await apiLogin(suite.server.url, user);
      const work = await apiCreateFolder(api, null, 'Work');
      const y2024 = await apiCreateFolder(api, work, '2024');
      const report = await apiCreateFolder(api, y2024, 'Quarterly report');
      await apiUploadFile(api, y2024, 'budget-q3.txt', new TextEncoder().encode('budget: balanced\n'), 'text/plain');
      const bulk = await apiCreateFolder(api, null, 'Bulk');
      await apiCreateFolders(
        api,
        bulk,
        Array.from({ length: FOLDERS }, (_, i) => `Item ${i}`),
      );

      const page = await suite.newBrowser();
      // The tree held back a while, so the build lasts long enough to see its hint; a search
      // meanwhile goes the old way (the tree), and finds the same.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.context().route(
        (url) => url.pathname === '/api/file' && url.searchParams.get('depth') === '20',
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await signInToFiles(page, suite.server.url, user);
      const hint = page.getByRole('status').filter({ hasText: 'Indexing your files for search' });
      await hint.waitFor({ timeout: 60_000 });
      await page.getByPlaceholder('Search files...').fill('report');
      await saveScreenshot(page, 'search-index-building', { fullPage: false });
      release();
      await page.getByRole('list', { name: 'Search results' }).getByText('Quarterly report', { exact: true }).waitFor();
      await hint.waitFor({ state: 'detached', timeout: 120_000 });
      await page.context().unrouteAll();

      // Sealed at rest: one database for this user, names nowhere in it.
      const databases = await indexDatabases(page);
      expect(databases).toEqual([`sealbox-search-${api.userId}`]);
      const stored = await indexContents(page, databases[0]!);
      expect(stored.meta).toMatchObject({ names: FOLDERS + 5, chunks: 1 });
      expect(stored.chunks).toBe(1);
      expect(stored.names).toBe(1);
      for (const name of ['Quarterly', 'Work', 'Item 1', 'Bulk']) expect(stored.text).not.toContain(name);

      // Searched from the index: no tree fetched.
      const fetches = countTreeFetches(page);
      const box = page.getByPlaceholder('Search files...');
      const results = page.getByRole('list', { name: 'Search results' });
      await box.fill('');
      await box.fill('REPORT');
      await results.getByText('Quarterly report', { exact: true }).waitFor();
      await results.getByText('My Files / Work / 2024').waitFor();
      await box.fill('item 149');
      await results.getByText('Item 1499', { exact: true }).waitFor();
      expect(await results.locator('li').count()).toBe(11);
      await saveScreenshot(page, 'search-index-results', { fullPage: false });

      // Renamed from another session: the event brings the new name in.
      await box.fill('summary');
      await page.getByText('No files found', { exact: true }).waitFor();
      await apiRename(api, report, 'Annual summary');
      await results.getByText('Annual summary', { exact: true }).waitFor({ timeout: 15_000 });
      await box.fill('quarterly');
      await page.getByText('No files found', { exact: true }).waitFor();
      expect(fetches.count()).toBe(0);

      // Written back (a moment after the change), a reload reads the sealed index: found again without the tree.
      const version = (await (await fetch(`${api.baseUrl}/api/file/tree-version`, { headers: { cookie: api.cookie } })).json())
        .treeVersion;
      const until = Date.now() + 15_000;
      while ((await indexContents(page, databases[0]!)).meta?.treeVersion !== version && Date.now() < until)
        await page.waitForTimeout(100);
      expect((await indexContents(page, databases[0]!)).meta).toMatchObject({ treeVersion: version });
      // Typed as soon as the box is there, while the stored index is still being read back: the
      // search waits for it rather than fetching the tree the old way.
      await page.reload();
      await box.fill('annual');
      await results.getByText('Annual summary', { exact: true }).waitFor();
      // Its names record was read first. The opening starts before the first paint, and an index
      // this small opens whole at once (the answers from the names alone, and the pause before the
      // chunks of a big one: workers/search-index/opening.test.ts).
      const mark = await page.waitForFunction(
        () => (performance.getEntriesByName('search:index-opened').at(-1) as PerformanceMark | undefined)?.detail,
      );
      expect(((await mark.jsonValue()) as { early: number }).early).toBeGreaterThan(0);
      // A file found opens in the previewer, though this tab never listed its folder (its key is opened first).
      await box.fill('budget');
      await results.getByRole('button', { name: 'budget-q3.txt' }).click();
      await page.getByText('budget: balanced').waitFor({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      expect(fetches.count()).toBe(0);

      await logoutViaNavbar(page);
      const deadline = Date.now() + 15_000;
      while ((await indexDatabases(page)).length > 0 && Date.now() < deadline) await page.waitForTimeout(100);
      expect(await indexDatabases(page)).toEqual([]);
    },
    SLOW,
  );

  test(
    '/shared: opening it puts what is shared in the index; after a reload a search answers before the subtrees come',
    async () => {
      const owner = await apiLogin(suite.server.url, await createUser(suite.server.url));
      const recipient = await createUser(suite.server.url);
      const recipientApi = await apiLogin(suite.server.url, recipient);
      const archive = await apiCreateFolder(owner, null, 'Archive');
      const inner = await apiCreateFolder(owner, archive, 'Inner');
      await apiUploadFile(owner, inner, 'ledger-zeta.txt', new TextEncoder().encode('zeta ledger: balanced\n'), 'text/plain');
      await apiCreateFolder(owner, null, 'zeta private');
      await apiShareWithUser(owner, archive, await publicUser(owner, recipientApi.userId), false);

      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, recipient);
      const sharedLink = page.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' });
      await sharedLink.click();
      await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
      const db = `sealbox-search-${recipientApi.userId}`;
      // Written as its own sealed section once /shared's subtrees are in.
      const until = Date.now() + 30_000;
      while ((await indexContents(page, db)).chunks < 2 && Date.now() < until) await page.waitForTimeout(100);
      const stored = await indexContents(page, db);
      expect(stored.chunks).toBe(2);
      // What is shared has no names record: a search of it waits for the whole index.
      expect(stored.names).toBe(1);
      for (const name of ['ledger', 'Archive', 'Inner']) expect(stored.text).not.toContain(name);

      // Reloaded with the subtrees held back: the search answers from the index all the same.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.context().route(
        (url) =>
          url.pathname === '/api/file' && url.searchParams.get('depth') === '20' && url.searchParams.get('id') === archive.id,
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await page.reload();
      await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
      const box = page.getByPlaceholder('Search files...');
      const results = page.getByRole('list', { name: 'Search results' });
      await box.fill('ZETA');
      await results.getByText('ledger-zeta.txt', { exact: true }).waitFor({ timeout: 30_000 });
      await results.getByText('Files Shared with Me / Archive / Inner').waitFor();
      expect(await results.getByRole('listitem').count()).toBe(1);
      await results.getByRole('button', { name: 'ledger-zeta.txt' }).click();
      await page.getByText('zeta ledger: balanced').waitFor({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      release();
      await page.context().unrouteAll({ behavior: 'wait' });
    },
    SLOW,
  );
});
