/**
 * The audio and video previews of preview-media.test.ts on the other routes, in Chromium through
 * the real server: a link visitor on /share plays through the same stream with ?linkId= on every
 * data call, a recipient on /shared too, and a local file on /preview plays from its object URL
 * without any request.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Request } from 'playwright-core';
import { toBase64Url } from '@sealbox/crypto';
import type { TestUser } from '../../support/accounts.ts';
import { signInToFiles, type ApiFolder } from '../../support/files.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { CLIP, mediaReady, openItem, playsPast, uploadMedia } from './media.ts';
import { linkPageHeading } from '../../support/sharing.ts';

const SLOW = 180_000;
/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app. */
const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', ...webDist } } });

let media: ApiFolder;
let clip: Uint8Array;
let linkId = '';
let recipient: TestUser;

describe.skipIf(skipWithoutBrowser)('audio and video previews stream through the service worker', () => {
  beforeAll(async () => {
    ({ media, clip, linkId, recipient } = await uploadMedia(suite.server.url));
  }, SLOW);

  test(
    '/share: a link visitor plays the video from the stream, every data call carrying the link',
    async () => {
      const page = await suite.newBrowser();
      const fetched: string[] = [];
      page.context().on('request', (request: Request) => {
        if (request.url().includes('/api/file/data/')) fetched.push(request.url());
      });
      await page.goto(`${suite.server.url}/share?linkId=${linkId}&sortBy=name&sortOrder=asc#${toBase64Url(media.key)}`);
      await linkPageHeading(page).waitFor();
      await openItem(page, CLIP);
      await mediaReady(page, 'video');
      await page.keyboard.press('Space');
      await playsPast(page, 0.5);
      expect(fetched.length).toBeGreaterThan(0);
      for (const url of fetched) expect(new URL(url).searchParams.get('linkId')).toBe(linkId);
    },
    SLOW,
  );

  test(
    '/shared: a recipient plays the video of a folder shared with them',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, recipient);
      await page.goto(`${suite.server.url}/shared?sortBy=name&sortOrder=asc`);
      await page.locator('.browser__body').getByRole('button', { name: 'Media', exact: true }).click();
      await page.locator('.browser__body').getByText(CLIP).first().waitFor();
      await openItem(page, CLIP);
      await mediaReady(page, 'video');
      await page.keyboard.press('Space');
      await playsPast(page, 0.5);
    },
    SLOW,
  );

  test(
    '/preview: a local video plays from its object URL, with no request to the API or a stream',
    async () => {
      const page = await suite.newBrowser();
      await page.goto(`${suite.server.url}/preview`);
      await page.getByRole('button', { name: 'Select File to Preview' }).waitFor();
      const requests: string[] = [];
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith('/api/') || path.startsWith('/__preview/')) requests.push(path);
      });
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Select File to Preview' }).click();
      await (await chooser).setFiles({ name: 'local.mp4', mimeType: 'video/mp4', buffer: Buffer.from(clip) });
      await page.getByRole('dialog', { name: 'local.mp4', exact: true }).waitFor();
      await page.waitForFunction(() => {
        const element = document.querySelector<HTMLVideoElement>('dialog.preview video');
        return !!element && element.readyState >= 1 && element.src.startsWith('blob:');
      });
      await page.keyboard.press('Space');
      await playsPast(page, 0.5);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('dialog.preview video')?.currentTime ?? 0) > 9);
      expect(requests).toEqual([]);
    },
    SLOW,
  );
});
