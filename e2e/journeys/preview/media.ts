/**
 * The media previews' folder and their page helpers, for preview-media.test.ts and
 * preview-media-routes.test.ts: a real H.264/AAC mp4 (e2e/fixtures, made with ffmpeg) and a wav
 * made here, uploaded through the API into the owner's "Media", shared by a link and with a
 * recipient; and waits on the previewer's media element and on the service worker's ranged
 * ciphertext fetches.
 */
import type { Page, Request } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, type ApiFolder, type ApiSession } from '../../support/files.ts';
import { apiShareWithUser, publicUser } from '../../support/sharing.ts';

export const CLIP = 'clip.mp4';
export const TONE = 'tone.wav';
export const TAMPERED = 'tampered.mp4';

/** A 16-bit mono PCM wav of a sine tone. */
export function wav(seconds: number, rate = 22_050, frequency = 440): Uint8Array {
  const samples = Math.round(seconds * rate);
  const out = new Uint8Array(44 + samples * 2);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++)
    view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * frequency * i) / rate) * 8000), true);
  return out;
}

export const previewer = (page: Page) => page.locator('dialog.preview[open]');
export const video = (page: Page) => previewer(page).locator('video');

export async function openItem(page: Page, name: string): Promise<void> {
  await page.locator('.browser__body').getByRole('button', { name, exact: true }).click();
  await page.getByRole('dialog', { name, exact: true }).waitFor();
}

/** Waits until the media element in the previewer has its stream and its metadata. */
export async function mediaReady(page: Page, tag: 'video' | 'audio'): Promise<string> {
  await page.waitForFunction(
    (selector) => {
      const element = document.querySelector<HTMLMediaElement>(selector);
      return !!element && element.readyState >= 1 && element.src.includes('/__preview/');
    },
    `dialog.preview ${tag}`,
    { timeout: 30_000 },
  );
  return previewer(page)
    .locator(tag)
    .evaluate((element: HTMLMediaElement) => element.src);
}

export const currentTime = (page: Page, tag = 'video') =>
  previewer(page)
    .locator(tag)
    .evaluate((element: HTMLMediaElement) => element.currentTime);

/** Waits for currentTime to pass `seconds` (the media actually plays). */
export async function playsPast(page: Page, seconds: number, tag = 'video'): Promise<void> {
  await page.waitForFunction(
    ([selector, past]) => {
      const element = document.querySelector<HTMLMediaElement>(selector as string);
      return !!element && !element.paused && element.currentTime > (past as number);
    },
    [`dialog.preview ${tag}`, seconds] as const,
    { timeout: 30_000 },
  );
}

/** Waits for a seek to settle near `target` seconds. */
export async function seekedTo(page: Page, target: number): Promise<number> {
  await page.waitForFunction(
    (want) => {
      const element = document.querySelector<HTMLVideoElement>('dialog.preview video');
      return !!element && !element.seeking && Math.abs(element.currentTime - want) < 1.5;
    },
    target,
    { timeout: 30_000 },
  );
  return currentTime(page);
}

export interface Fetched {
  start: number;
  end: number;
}

/** The service worker's ciphertext requests for `id` (byte ranges [start, end)). */
export function watchData(page: Page, id: string): Fetched[] {
  const seen: Fetched[] = [];
  page.context().on('request', (request: Request) => {
    if (!request.url().includes(`/api/file/data/${id}`)) return;
    const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers().range ?? '');
    seen.push(match ? { start: Number(match[1]), end: Number(match[2]) + 1 } : { start: -1, end: -1 });
  });
  return seen;
}

/** Waits until no new ciphertext fetch has started for 1 s. */
export async function settled(fetched: Fetched[]): Promise<void> {
  let count = -1;
  while (count !== fetched.length) {
    count = fetched.length;
    await Bun.sleep(1000);
  }
}

export interface MediaFolder {
  owner: TestUser;
  session: ApiSession;
  media: ApiFolder;
  clip: Uint8Array;
  clipId: string;
  tamperedId: string;
  linkId: string;
  recipient: TestUser;
}

/** The owner's "Media": the clip, a tone and a copy of the clip to tamper with; shared by a link and with a recipient. */
export async function uploadMedia(server: string): Promise<MediaFolder> {
  const owner = await createUser(server);
  const session = await apiLogin(server, owner);
  const media = await apiCreateFolder(session, null, 'Media');
  const clip = new Uint8Array(await readFile(join(import.meta.dir, '..', '..', 'fixtures', 'preview-clip.mp4')));
  const clipId = (await apiUploadFile(session, media, CLIP, clip, 'video/mp4')).id;
  await apiUploadFile(session, media, TONE, wav(8), 'audio/wav');
  const tamperedId = (await apiUploadFile(session, media, TAMPERED, clip, 'video/mp4')).id;
  const response = await fetch(`${server}/api/share`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'link', id: media.id, expires: 0, password: null, edit: false }),
  });
  if (!response.ok) throw new Error(`share link: ${response.status} ${await response.text()}`);
  const linkId = ((await response.json()) as { linkId: string }).linkId;
  const recipient = await createUser(server);
  const recipientKeys = await publicUser(session, (await apiLogin(server, recipient)).userId);
  await apiShareWithUser(session, media, recipientKeys, false);
  return { owner, session, media, clip, clipId, tamperedId, linkId, recipient };
}

/**
 * A double tap at `fraction` of the video's width: two pointer-ups on the tap layer in one task,
 * so they fall inside the 300 ms window however busy the machine (two Playwright clicks can land
 * further apart than that under load, and then count as two single taps).
 */
export async function doubleTap(page: Page, fraction: number): Promise<void> {
  await previewer(page)
    .getByTestId('video-taps')
    .evaluate((layer, at) => {
      const box = layer.getBoundingClientRect();
      const init = {
        bubbles: true,
        button: 0,
        pointerType: 'touch',
        clientX: box.x + box.width * at,
        clientY: box.y + box.height / 2,
      };
      layer.dispatchEvent(new PointerEvent('pointerup', init));
      layer.dispatchEvent(new PointerEvent('pointerup', init));
    }, fraction);
}
