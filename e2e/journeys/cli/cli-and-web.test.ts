/**
 * The command-line client and the web app share one protocol (issue 26, docs/cli.md): a folder
 * put and shared with a user by `sealbox`, opened in Chromium by the recipient as a verified
 * share; a link made by `sealbox link`, opened by an anonymous visitor in Chromium; and a link
 * made in the web app's Share dialog (copied from it), fetched by `sealbox get` without an
 * account, byte for byte; a folder shared with a user in the web app, read by that user's CLI;
 * and a tree rclone synced through `sealbox webdav`, shown by the browser
 * name for name.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cli, makeCli, random, rcloneRemote, startBridge } from '../../../apps/cli/test/support.ts';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { folderLink, signInToFiles } from '../../support/files.ts';
import { openShare, toastText } from '../../support/share-dialog.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { linkPageHeading } from '../../support/sharing.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW });

let alice: TestUser;
let bob: TestUser;
let cli: Cli;
let base: string;
const photo = random(300_000);

describe.skipIf(skipWithoutBrowser)('the CLI and the web app', () => {
  beforeAll(async () => {
    alice = await createUser(suite.server.url);
    bob = await createUser(suite.server.url);
    cli = await makeCli(alice.password);
    base = await mkdtemp(join(tmpdir(), 'sealbox-cli-web-'));
    await mkdir(join(base, 'From the CLI'));
    await writeFile(join(base, 'From the CLI', 'notes.txt'), 'written in a terminal');
    await writeFile(join(base, 'From the CLI', 'photo.bin'), photo);
    expect((await cli.run(['login', suite.server.url, alice.username])).code).toBe(0);
    expect((await cli.run(['put', join(base, 'From the CLI'), '/'])).code).toBe(0);
  }, SLOW);

  test(
    'shared with a user by the CLI: the recipient opens it in Chromium as a verified share',
    async () => {
      expect((await cli.run(['share', '/From the CLI', '--with', bob.username])).code).toBe(0);
      const page = await suite.signedIn(bob, { expectHttpErrors: [] });
      await page.locator('#files-sidebar').getByRole('link', { name: 'Shared with me' }).click();
      await page.getByRole('heading', { name: 'Files Shared with Me' }).waitFor();
      await folderLink(page, 'From the CLI').waitFor();
      expect(await page.getByRole('img', { name: /Unverified share/ }).count()).toBe(0);
      await folderLink(page, 'From the CLI').click();
      await page.locator('.browser__body').getByText('notes.txt', { exact: true }).waitFor();
      await page.locator('.browser__body').getByText('photo.bin', { exact: true }).waitFor();
    },
    SLOW,
  );

  test(
    'a link made by the CLI opens for an anonymous visitor in Chromium',
    async () => {
      const made = await cli.json(['link', '/From the CLI']);
      expect(made.code).toBe(0);
      const visitor = await suite.newBrowser({ expectHttpErrors: [] });
      await visitor.goto(made.value.url);
      await linkPageHeading(visitor).waitFor();
      await visitor.locator('.browser__body').getByText('notes.txt', { exact: true }).waitFor();
    },
    SLOW,
  );

  test(
    "a link made in the web app's Share dialog is fetched by the CLI without an account",
    async () => {
      const page = await suite.newBrowser();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
      await signInToFiles(page, suite.server.url, alice);
      const dialog = await openShare(page, 'From the CLI');
      await dialog.getByRole('tab', { name: 'Links' }).click();
      await dialog.getByRole('button', { name: 'Create link' }).click();
      await toastText(page, 'Link created').waitFor();
      await dialog.getByRole('listitem', { name: 'Link 1' }).getByRole('button', { name: 'Copy Link 1' }).click();
      await toastText(page, 'Link copied').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());

      const stranger = await makeCli('not used');
      const down = join(base, 'down');
      const got = await stranger.run(['get', copied, down]);
      expect(got.stderr).toBe('');
      expect(got.code).toBe(0);
      expect(await readFile(join(down, 'notes.txt'), 'utf8')).toBe('written in a terminal');
      expect(new Uint8Array(await readFile(join(down, 'photo.bin')))).toEqual(photo);
    },
    SLOW,
  );

  test(
    'shared with a user in the web app: the recipient reads it with the CLI as a verified share',
    async () => {
      const carol = await createUser(suite.server.url);
      const page = await suite.newBrowser();
      await signInToFiles(page, suite.server.url, alice);
      const dialog = await openShare(page, 'From the CLI');
      await dialog.getByLabel('Add people').fill(carol.username);
      await dialog.getByRole('button', { name: `Add ${carol.username} as viewer` }).click();
      await toastText(page, `Shared with ${carol.username}`).waitFor();

      const carolCli = await makeCli(carol.password);
      expect((await carolCli.run(['login', suite.server.url, carol.username])).code).toBe(0);
      const listed = await carolCli.json(['ls', 'shared:']);
      expect(listed.value).toEqual([
        expect.objectContaining({ name: 'From the CLI', type: 'folder', owner: alice.username, edit: false, verified: true }),
      ]);
      const down = join(base, 'carol');
      await mkdir(down);
      const got = await carolCli.run(['get', 'shared:From the CLI', down]);
      expect(got.stderr).toBe('');
      expect(got.code).toBe(0);
      expect(await readFile(join(down, 'From the CLI', 'notes.txt'), 'utf8')).toBe('written in a terminal');
      expect(new Uint8Array(await readFile(join(down, 'From the CLI', 'photo.bin')))).toEqual(photo);
    },
    SLOW,
  );

  test(
    'a tree synced up by rclone through the WebDAV bridge: the browser shows it name for name',
    async () => {
      const tree = join(base, 'rclone', 'Synced');
      await mkdir(join(tree, 'Fotos été'), { recursive: true });
      const names = ['a b c.txt', 'Привет мир.txt', '日本語のメモ.txt', 'مرحبا.txt', 'plain.txt'];
      for (const name of names) await writeFile(join(tree, name), `content of ${name}`);
      await writeFile(join(tree, 'Fotos été', 'photo 1.bin'), photo);
      const { child: bridge, url } = await startBridge(cli, alice.password, 'bridge-password');
      try {
        const env = await rcloneRemote(url, 'bridge-password', join(base, 'rclone'));
        // Into its own folder: a sync to the top would delete (to the trash) what else is there.
        const sync = Bun.spawn(['rclone', 'sync', tree, 'sb:Synced'], {
          env: { ...process.env, ...env },
          stdout: 'pipe',
          stderr: 'pipe',
        });
        expect(await sync.exited).toBe(0);
      } finally {
        bridge.kill('SIGTERM');
        await bridge.exited;
      }
      const page = await suite.newBrowser();
      await signInToFiles(page, suite.server.url, alice);
      await folderLink(page, 'Synced').click();
      const body = page.locator('.browser__body');
      for (const name of names) await body.getByText(name, { exact: true }).waitFor();
      await folderLink(page, 'Fotos été').click();
      await body.getByText('photo 1.bin', { exact: true }).waitFor();
      await saveScreenshot(page, 'cli-rclone-tree-in-browser');
    },
    SLOW,
  );
});
