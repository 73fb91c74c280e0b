/**
 * Grid thumbnails (docs/product.md "Screens" "previews of images and videos"; docs/protocol.md
 * "Files and uploads" and "Threat table") through the built web app and the real server: images
 * uploaded encrypted come back as small <img src="blob:..."> made in the crypto worker, a video
 * gets a poster frame, SVG and other files keep their type icon, and nothing trips the CSP or logs
 * an error. Screenshots of the grid at 1280 and 375 px.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { createUser, loginViaUi, type TestUser } from '../../support/accounts.ts';
import { solidPng } from '../../support/png.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import { pickFiles, transfersPanel, waitForSummary } from '../../support/transfers.ts';

const SLOW = 120_000;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: { RATE_LIMITS: 'off' } } });
let user: TestUser;

beforeAll(async () => {
  if (skipWithoutBrowser) return;
  user = await createUser(suite.server.url);
}, SLOW);

const card = (page: Page, name: string) => page.locator('.file-card', { has: page.getByText(name, { exact: true }) });

interface Made {
  jpeg: number[];
  webp: number[];
  webm: number[] | null;
}

/**
 * A noisy JPEG (over one 256 KiB chunk, so several chunks decrypt), a WebP and, where the
 * browser can record one, a short WebM: drawn on a canvas in a blank page, before any app code.
 */
function makeMedia(page: Page): Promise<Made> {
  return page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    const g = canvas.getContext('2d')!;
    const bytesOf = async (type: string, quality: number) => {
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
      return Array.from(new Uint8Array(await blob!.arrayBuffer()));
    };
    const scene = (w: number, h: number, hue: number) => {
      canvas.width = w;
      canvas.height = h;
      const sky = g.createLinearGradient(0, 0, 0, h);
      sky.addColorStop(0, `hsl(${hue} 70% 70%)`);
      sky.addColorStop(1, `hsl(${hue + 40} 60% 35%)`);
      g.fillStyle = sky;
      g.fillRect(0, 0, w, h);
      g.fillStyle = `hsl(${hue + 180} 80% 60%)`;
      g.beginPath();
      g.arc(w * 0.7, h * 0.35, Math.min(w, h) * 0.15, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = `hsl(${hue + 90} 40% 25%)`;
      g.beginPath();
      g.moveTo(0, h);
      g.lineTo(w * 0.35, h * 0.45);
      g.lineTo(w * 0.65, h);
      g.fill();
    };
    scene(1600, 1200, 200);
    // Noise keeps the JPEG large (several chunks).
    const image = g.getImageData(0, 0, 1600, 1200);
    for (let i = 0; i < image.data.length; i += 4) {
      const n = (Math.random() - 0.5) * 60;
      image.data[i] = image.data[i]! + n;
      image.data[i + 1] = image.data[i + 1]! + n;
      image.data[i + 2] = image.data[i + 2]! + n;
    }
    g.putImageData(image, 0, 0);
    const jpeg = await bytesOf('image/jpeg', 0.92);
    scene(480, 640, 20);
    const webp = await bytesOf('image/webp', 0.9);

    let webm: number[] | null = null;
    try {
      scene(640, 360, 280);
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
      const parts: Blob[] = [];
      recorder.ondataavailable = (event) => parts.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let frame = 0; frame < 30; frame++) {
        scene(640, 360, 280 + frame * 3);
        g.fillStyle = '#fff';
        g.fillRect(40 + frame * 12, 280, 60, 40);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      recorder.stop();
      await stopped;
      webm = Array.from(new Uint8Array(await new Blob(parts).arrayBuffer()));
      if (webm.length === 0) webm = null;
    } catch {
      webm = null;
    }
    return { jpeg, webp, webm };
  });
}

describe.skipIf(skipWithoutBrowser)('grid thumbnails', () => {
  test(
    'images and a video show thumbnails from the worker; SVG and a text file keep their icons',
    async () => {
      const page = await suite.newBrowser();
      const media = await makeMedia(page);
      expect(media.jpeg.length).toBeGreaterThan(300_000);

      const dataRequests: string[] = [];
      page.on('request', (request) => {
        if (/\/api\/file\/data\//.test(new URL(request.url()).pathname)) dataRequests.push(request.url());
      });

      await loginViaUi(page, suite.server.url, user);
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>parent.__svgRan = 1</script><rect width="40" height="40" fill="red"/></svg>';
      const chosen = [
        { name: 'harbour-sunset.png', mimeType: 'image/png', buffer: solidPng(800, 600, [231, 111, 81]) },
        { name: 'mountain-noise.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(media.jpeg) },
        { name: 'portrait.webp', mimeType: 'image/webp', buffer: Buffer.from(media.webp) },
        { name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture\n'.repeat(50)) },
        ...(media.webm ? [{ name: 'clip.webm', mimeType: 'video/webm', buffer: Buffer.from(media.webm) }] : []),
      ];
      await pickFiles(page, chosen);
      await waitForSummary(page, `All ${chosen.length} files uploaded successfully!`);
      // Out of the way of the grid's last row.
      await transfersPanel(page).getByRole('button', { name: 'Close transfers' }).click();

      await page.getByRole('button', { name: 'Grid', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('view') === 'grid');
      await page.locator('.file-grid').waitFor();

      const images = ['harbour-sunset.png', 'mountain-noise.jpg', 'portrait.webp'];
      for (const name of images) {
        const img = card(page, name).locator('img.file-card__image');
        await img.waitFor({ timeout: 30_000 });
        const shown = await img.evaluate(async (el: HTMLImageElement) => {
          await el.decode();
          return {
            src: el.src,
            alt: el.alt,
            width: el.naturalWidth,
            height: el.naturalHeight,
            fit: getComputedStyle(el).objectFit,
          };
        });
        expect(shown.src.startsWith('blob:')).toBe(true);
        expect(shown.alt).toBe(name);
        expect(shown.width).toBeGreaterThan(0);
        expect(Math.max(shown.width, shown.height)).toBeLessThanOrEqual(320);
        expect(shown.fit).toBe('cover');
      }
      // Aspect ratio kept: the 1600x1200 JPEG becomes 320x240, the 480x640 WebP 240x320.
      expect(
        await card(page, 'mountain-noise.jpg')
          .locator('img')
          .evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight]),
      ).toEqual([320, 240]);
      expect(
        await card(page, 'portrait.webp')
          .locator('img')
          .evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight]),
      ).toEqual([240, 320]);

      if (media.webm) {
        const poster = card(page, 'clip.webm').locator('img.file-card__image');
        await poster.waitFor({ timeout: 30_000 });
        expect(
          await poster.evaluate(async (el: HTMLImageElement) => {
            await el.decode();
            return el.naturalWidth;
          }),
        ).toBeGreaterThan(0);
        await card(page, 'clip.webm').locator('.file-card__badge').waitFor();
      } else {
        console.warn('MediaRecorder made no WebM here: the video poster frame is not checked');
      }

      // SVG and the text file: the type icon, no <img>, and their bytes are never fetched.
      for (const name of ['drawing.svg', 'notes.txt']) {
        const thumb = card(page, name).locator('.file-card__thumb');
        expect(await thumb.locator('svg').count()).toBe(1);
        expect(await thumb.locator('img').count()).toBe(0);
      }
      expect(await page.evaluate(() => (window as unknown as { __svgRan?: number }).__svgRan)).toBeUndefined();
      expect(dataRequests.length).toBe(images.length + (media.webm ? 1 : 0));

      // No blob: URL of a decrypted file stays open as a page or a frame.
      expect(await page.locator('iframe, embed, object').count()).toBe(0);
      await saveScreenshot(page, 'thumbnails-grid-1280', { fullPage: false });

      // Narrow: two columns, thumbnails straight from the cache (no new fetch).
      await page.setViewportSize({ width: 375, height: 800 });
      await page.locator('.file-grid[data-columns="2"]').waitFor();
      await card(page, 'harbour-sunset.png').locator('img.file-card__image').waitFor();
      expect(dataRequests.length).toBe(images.length + (media.webm ? 1 : 0));
      await saveScreenshot(page, 'thumbnails-grid-375', { fullPage: true });
    },
    SLOW,
  );
});
