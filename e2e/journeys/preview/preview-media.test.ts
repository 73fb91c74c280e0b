/**
 * Audio and video in the previewer (issue 13 "Streaming and seeking", docs/product.md "Screens"
 * (Previewer), "Messages" and "Limits"; docs/protocol.md "Files and uploads" and "Threat table"),
 * in Chromium through the real server: the clip and tone of media.ts are uploaded through the API
 * and opened from /files. The media element reads /__preview/{token} from the service worker,
 * which fetches only the ciphertext chunks covering each range and decrypts them alone: the video
 * plays, seeks by the arrow keys (without cycling) and by double-tap, a seek far ahead fetches
 * only chunks from there on, the controls hide after 1 s; the stream answers nothing to a
 * navigation or a fetch; a chunk flipped on its way shows 'Error decrypting file.' and plays
 * nothing; a stream the service worker lost is replaced. Screenshots of both views at 375 and
 * 1280 px, light and dark. The same streams on /share, /shared and /preview:
 * preview-media-routes.test.ts.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page, Request } from 'playwright-core';
import type { TestUser } from '../../support/accounts.ts';
import { signInToFiles, type ApiFolder } from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser, type BrowserOptions } from '../../support/suite.ts';
import {
  CLIP,
  TAMPERED,
  TONE,
  currentTime,
  doubleTap,
  mediaReady,
  openItem,
  playsPast,
  previewer,
  seekedTo,
  settled,
  uploadMedia,
  video,
  watchData,
} from './media.ts';

const SLOW = 180_000;
/** docs/protocol.md: 256 KiB of plaintext and a 16-byte tag per chunk. */
const CIPHER_CHUNK = 262_144 + 16;
/** docs/product.md "Limits" */
const SEEK_STEP = 10;

/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app. */
const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off', ...webDist } } });

/** A navigation or a fetch() of a stream URL is refused (403), a closed one is gone (404): Chromium logs both. */
const REFUSED = [
  { status: 403, path: /^\/__preview\// },
  { status: 404, path: /^\/__preview\// },
];

let owner: TestUser;
let media: ApiFolder;
let clip: Uint8Array;
let clipId = '';
let tamperedId = '';

const folderUrl = () => `${suite.server.url}/files?parentId=${media.id}&sortBy=name&sortOrder=asc`;

async function openFolder(options: BrowserOptions = {}): Promise<Page> {
  const page = await signInToFiles(await suite.newBrowser(options), suite.server.url, owner);
  await page.goto(folderUrl());
  await page.locator('.browser__body').getByText(CLIP).first().waitFor();
  return page;
}

describe.skipIf(skipWithoutBrowser)('audio and video previews stream through the service worker', () => {
  beforeAll(async () => {
    ({ owner, media, clip, clipId, tamperedId } = await uploadMedia(suite.server.url));
  }, SLOW);

  test(
    'a video plays from ranged, chunk-aligned fetches; arrows and double-tap seek 10 s; a far seek fetches only from there',
    async () => {
      const page = await openFolder({ expectHttpErrors: REFUSED });
      const fetched = watchData(page, clipId);
      await openItem(page, CLIP);
      const src = await mediaReady(page, 'video');
      expect(new URL(src).pathname).toMatch(/^\/__preview\/[0-9a-f-]{36}$/);

      // Every ciphertext fetch is a Range of whole chunks; nothing fetched the whole blob.
      const cipherSize = clip.length + 16 * Math.ceil(clip.length / 262_144);
      // (The context reports the service worker's requests a moment after they are made.)
      for (let i = 0; i < 50 && fetched.length === 0; i++) await page.waitForTimeout(100);
      expect(fetched.length).toBeGreaterThan(0);
      for (const range of fetched) {
        expect(range.start).toBeGreaterThanOrEqual(0);
        expect(range.start % CIPHER_CHUNK).toBe(0);
        expect(range.end % CIPHER_CHUNK === 0 || range.end === cipherSize).toBe(true);
      }

      // A far seek before playing, once the first load has settled: the element asks for a range
      // from near the new position, and the service worker fetches only the chunks from there.
      await settled(fetched);
      fetched.length = 0;
      const asked: number[] = [];
      const onAsk = (request: Request) => {
        const match = /^bytes=(\d+)-/.exec(request.headers().range ?? '');
        if (request.url() === src && match) asked.push(Number(match[1]));
      };
      page.on('request', onAsk);
      const duration = await video(page).evaluate((element: HTMLVideoElement) => element.duration);
      expect(duration).toBeGreaterThan(11);
      await page.keyboard.press('ArrowRight');
      // The arrow seeks (the shell does not cycle to the next file).
      await page.getByRole('dialog', { name: CLIP, exact: true }).waitFor();
      expect(await seekedTo(page, SEEK_STEP)).toBeGreaterThan(SEEK_STEP - 1.5);
      await settled(fetched);
      page.off('request', onAsk);
      // Each range the element asked for is served from the chunk holding its first byte on.
      const nearest = Math.min(...asked);
      expect(nearest).toBeGreaterThan(clip.length / 2);
      const firstChunk = Math.floor(nearest / 262_144);
      for (const start of asked)
        expect(fetched.some((range) => range.start === Math.floor(start / 262_144) * CIPHER_CHUNK)).toBe(true);
      const seekFetches = fetched.filter((range) => range.start >= 0);
      expect(seekFetches.length).toBeGreaterThan(0);
      expect(seekFetches.some((range) => range.start === firstChunk * CIPHER_CHUNK)).toBe(true);
      for (const range of seekFetches) expect(range.start).toBeGreaterThanOrEqual(firstChunk * CIPHER_CHUNK);
      await page.keyboard.press('ArrowLeft');
      expect(await seekedTo(page, 0)).toBeLessThan(1.5);

      // Space plays; currentTime advances.
      await page.keyboard.press('Space');
      await playsPast(page, 0.5);
      // Space again pauses, and the previewer stays open.
      await page.keyboard.press('Space');
      await page.waitForFunction(() => document.querySelector<HTMLVideoElement>('dialog.preview video')?.paused === true);

      // Double-tap on the right half seeks forward 10 s, with the seek icon flashing; the left half back.
      const box = (await previewer(page).getByTestId('video-taps').boundingBox())!;
      const before = await currentTime(page);
      await doubleTap(page, 0.75);
      await previewer(page).getByTestId('seek-flash').waitFor();
      const forward = await seekedTo(page, Math.min(before + SEEK_STEP, duration));
      expect(forward).toBeGreaterThan(before + SEEK_STEP - 1.5);
      // A double-tap is not a tap: it did not start playing.
      await page.waitForTimeout(400);
      expect(await video(page).evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
      // The flash lasts 500 ms.
      await previewer(page).getByTestId('seek-flash').waitFor({ state: 'detached', timeout: 10_000 });
      await doubleTap(page, 0.25);
      expect(await seekedTo(page, Math.max(0, forward - SEEK_STEP))).toBeLessThan(forward - SEEK_STEP + 1.5);

      // The buttons: play, speed, mute, volume.
      await previewer(page).getByRole('button', { name: 'Play' }).click();
      await playsPast(page, (await currentTime(page)) + 0.3);
      await previewer(page).getByLabel('Speed').selectOption({ label: '1.5' });
      expect(await video(page).evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.5);
      const speeds = await previewer(page).getByLabel('Speed').locator('option').allTextContents();
      expect(speeds).toEqual(['0.25', '0.5', '0.75', 'Normal', '1.25', '1.5', '2']);
      await previewer(page).getByRole('button', { name: 'Mute' }).click();
      expect(await video(page).evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
      await previewer(page).getByRole('button', { name: 'Unmute' }).click();
      await previewer(page).getByLabel('Volume').fill('0.25');
      expect(await video(page).evaluate((element: HTMLVideoElement) => element.volume)).toBeCloseTo(0.25, 2);

      // Controls hide after 1 s without activity while playing, and come back on a move.
      const frame = previewer(page).getByTestId('video-view');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="video-view"]')?.getAttribute('data-controls') === 'hidden',
        null,
        {
          timeout: 15_000,
        },
      );
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      expect(await frame.getAttribute('data-controls')).toBe('visible');

      // The stream URL is for media elements only: a fetch() and a navigation get 403, no bytes.
      const fetchedByScript = await page.evaluate(async (url) => {
        const response = await fetch(url, { headers: { range: 'bytes=0-99' } });
        return { status: response.status, length: (await response.arrayBuffer()).byteLength };
      }, src);
      expect(fetchedByScript).toEqual({ status: 403, length: 0 });
      const other = await page.context().newPage();
      const statuses: number[] = [];
      other.on('response', (response) => {
        if (response.url() === src) statuses.push(response.status());
      });
      // Chromium shows its own error page for an empty error answer (goto then throws).
      await other.goto(src).catch(() => null);
      expect(statuses).toEqual([403]);
      expect(await other.locator('video, audio').count()).toBe(0);
      await other.close();

      // Closing the previewer ends the stream: the service worker forgets the job (the query only
      // keeps Chromium from answering from its own media cache of the URL).
      await page.keyboard.press('Escape');
      await previewer(page).waitFor({ state: 'detached' });
      const after = await page.evaluate(async (url) => {
        const element = document.createElement('video');
        element.muted = true;
        element.src = `${url}?after-close`;
        return new Promise<string>((resolve) => {
          element.onerror = () => resolve('error');
          element.onloadedmetadata = () => resolve('loaded');
          setTimeout(() => resolve('timeout'), 10_000);
        });
      }, src);
      expect(after).toBe('error');
    },
    SLOW,
  );

  test(
    'the stream answers Range requests with 206 and Content-Range, as a media type only, nosniff and sandboxed',
    async () => {
      const page = await openFolder();
      await openItem(page, CLIP);
      const src = await mediaReady(page, 'video');
      // A media element is the only reader the service worker serves: read through one's Range
      // answers as Chromium saw them.
      const answers: Array<{ status: number; headers: Record<string, string>; range: string }> = [];
      page.on('response', async (response) => {
        if (!response.url().includes('/__preview/')) return;
        answers.push({ status: response.status(), headers: response.headers(), range: response.request().headers().range ?? '' });
      });
      await page.keyboard.press('ArrowRight');
      await seekedTo(page, SEEK_STEP);
      await page.keyboard.press('Space');
      await playsPast(page, SEEK_STEP + 0.5);
      await page.keyboard.press('Space');
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) {
        expect(answer.headers['content-type']).toBe('video/mp4');
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['content-security-policy']).toContain('sandbox');
        expect(answer.headers['accept-ranges']).toBe('bytes');
        if (answer.range) {
          expect(answer.status).toBe(206);
          const [, from] = /^bytes=(\d+)-/.exec(answer.range)!;
          expect(answer.headers['content-range']).toMatch(new RegExp(`^bytes ${from}-\\d+/${clip.length}$`));
        }
      }
      expect(src).toContain('/__preview/');
    },
    SLOW,
  );

  test(
    'a chunk flipped on its way shows Error decrypting file. and plays nothing',
    async () => {
      const page = await openFolder();
      let flipped = 0;
      // The service worker's fetches go through the context's routes in Chromium.
      await page.context().route('**/api/file/data/**', async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        if (route.request().url().includes(tamperedId) && body.length > 1000) {
          body[1000] = (body[1000] ?? 0) ^ 0x01;
          flipped += 1;
        }
        await route.fulfill({ response, body });
      });
      await openItem(page, TAMPERED);
      await previewer(page).getByText('Error decrypting file.', { exact: true }).waitFor({ timeout: 30_000 });
      expect(flipped).toBeGreaterThan(0);
      expect(await previewer(page).locator('video').count()).toBe(0);
    },
    SLOW,
  );

  test(
    'a stream the service worker lost (it was stopped) is replaced, and the video plays on from where it was',
    async () => {
      const page = await openFolder({ expectHttpErrors: REFUSED });
      await openItem(page, CLIP);
      const fetched = watchData(page, clipId);
      const first = await mediaReady(page, 'video');
      // Not played yet: Chromium holds only the start, so a far seek needs the stream again.
      await settled(fetched);
      // Chromium stops idle service workers; their jobs go with them.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      const before = await currentTime(page);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        (old) => {
          const element = document.querySelector<HTMLVideoElement>('dialog.preview video');
          return !!element && element.src !== old && element.src.includes('/__preview/') && element.readyState >= 1;
        },
        first,
        { timeout: 30_000 },
      );
      expect(await seekedTo(page, before + SEEK_STEP)).toBeGreaterThan(before + SEEK_STEP - 1.5);
      await page.keyboard.press('Space');
      await playsPast(page, before + SEEK_STEP + 0.3);
      expect(await previewer(page).getByText('Error decrypting file.', { exact: true }).count()).toBe(0);
      await cdp.detach();
    },
    SLOW,
  );

  test(
    'audio plays, its volume (0-1, step 0.01) and mute work',
    async () => {
      const page = await openFolder();
      await openItem(page, TONE);
      await mediaReady(page, 'audio');
      const volume = previewer(page).getByLabel('Volume');
      expect(await volume.getAttribute('min')).toBe('0');
      expect(await volume.getAttribute('max')).toBe('1');
      expect(await volume.getAttribute('step')).toBe('0.01');
      await previewer(page).getByRole('button', { name: 'Play' }).click();
      await playsPast(page, 0.5, 'audio');
      await volume.fill('0.42');
      expect(
        await previewer(page)
          .locator('audio')
          .evaluate((element: HTMLAudioElement) => element.volume),
      ).toBeCloseTo(0.42, 2);
      await previewer(page).getByRole('button', { name: 'Mute' }).click();
      expect(
        await previewer(page)
          .locator('audio')
          .evaluate((element: HTMLAudioElement) => element.muted),
      ).toBe(true);
      // Space pauses.
      await page.keyboard.press('Space');
      await page.waitForFunction(() => document.querySelector<HTMLAudioElement>('dialog.preview audio')?.paused === true);
      const seek = previewer(page).getByLabel('Seek');
      // A click three quarters along the seek bar goes to 6 s of 8.
      const bar = (await seek.boundingBox())!;
      await page.mouse.click(bar.x + bar.width * 0.75, bar.y + bar.height / 2);
      await page.waitForFunction(() => {
        const element = document.querySelector<HTMLAudioElement>('dialog.preview audio');
        return !!element && !element.seeking && element.currentTime > 5 && element.currentTime < 7;
      });
    },
    SLOW,
  );

  test(
    'screenshots of the video and audio views at 375 and 1280 px, light and dark',
    async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [1280, 375]) {
          const page = await openFolder({ width, height: width < 500 ? 740 : 800, colorScheme });
          await openItem(page, CLIP);
          await mediaReady(page, 'video');
          await page.keyboard.press('ArrowRight');
          await seekedTo(page, SEEK_STEP);
          await page.mouse.move(width / 2, 300);
          await saveScreenshot(page, `preview-media-${width}-${colorScheme}-video`, { fullPage: false });
          await page.keyboard.press('Escape');
          await previewer(page).waitFor({ state: 'detached' });
          await openItem(page, TONE);
          await mediaReady(page, 'audio');
          await saveScreenshot(page, `preview-media-${width}-${colorScheme}-audio`, { fullPage: false });
        }
      }
    },
    SLOW * 2,
  );
});
