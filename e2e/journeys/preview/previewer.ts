/**
 * The previewer as the preview journeys drive and watch it: a local file opened on /preview, the
 * Word frame and its srcdoc document, a drawn pdf page, and what a payload that ran would leave
 * behind (a `window.__pwned`, a /__pwned/... request, a blob: page or a popup).
 */
import { expect } from 'bun:test';
import type { Page } from 'playwright-core';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app (e.g. one with a rule removed). */
export const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST
  ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST }
  : {};

/** The web app's folder: its package.json pins pdf.js, its dist/ is what the server serves. */
export const WEB = join(import.meta.dir, '..', '..', '..', 'apps', 'web');
export const PDFJS_VERSION: string = JSON.parse(
  readFileSync(join(WEB, 'node_modules', 'pdfjs-dist', 'package.json'), 'utf8'),
).version;

declare global {
  interface Window {
    __pwned?: unknown;
    __blobTypes?: Record<string, string>;
  }
}

export const previewer = (page: Page) => page.locator('dialog.preview[open]');

export interface Watch {
  /** Requests a payload would have made. */
  pwnedRequests: string[];
  /** Pages and top-level navigations to blob: URLs. */
  blobPages: string[];
  popups: string[];
}

/** Records what a payload would leave behind; call before the page does anything. */
export function watch(page: Page): Watch {
  const seen: Watch = { pwnedRequests: [], blobPages: [], popups: [] };
  page.on('request', (request) => {
    if (request.url().includes('__pwned')) seen.pwnedRequests.push(request.url());
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().startsWith('blob:')) seen.blobPages.push(frame.url());
  });
  page.on('popup', (popup) => seen.popups.push(popup.url()));
  page.context().on('page', (opened) => {
    if (opened !== page) seen.blobPages.push(`new page: ${opened.url()}`);
  });
  return seen;
}

export async function expectNothingRan(page: Page, seen: Watch): Promise<void> {
  // A payload's timers and fetches get a moment to show themselves.
  await page.waitForTimeout(600);
  expect(await page.evaluate(() => window.__pwned ?? null)).toBeNull();
  expect(seen.pwnedRequests).toEqual([]);
  expect(seen.blobPages).toEqual([]);
  expect(seen.popups).toEqual([]);
  expect(page.url().startsWith('blob:')).toBe(false);
  expect(page.context().pages()).toHaveLength(1);
}

/**
 * "Copy image address" pasted into the address bar: the previewed image's URL opened at top level
 * in a tab of its own (the same browser profile, so an object URL of our origin would resolve).
 * Answers the URL, the network requests that tab made, and the origin it ran in (an object URL
 * of ours runs the SVG in our origin, where its script could read the session's API).
 */
export async function openImageAddress(page: Page): Promise<{ src: string; requests: string[]; origin: string }> {
  const src = (await previewer(page).locator('img.image-view__image').getAttribute('src')) ?? '';
  const tab = await page.context().newPage();
  const requests: string[] = [];
  tab.on('request', (request) => {
    if (request.url().startsWith('http')) requests.push(request.url());
  });
  await tab.goto(src).catch(() => undefined);
  // The payload's script and onload handler get a moment to run, if they can.
  await tab.waitForTimeout(800);
  const origin = await tab.evaluate(() => location.origin).catch(() => 'not opened');
  await tab.close();
  return { src, requests, origin };
}

/** The SVG's address is a data: URL: opened at top level it reaches nothing of our origin. */
export async function expectSvgAddressHarmless(page: Page, server: string): Promise<void> {
  const opened = await openImageAddress(page);
  expect(opened.src.startsWith('data:image/svg+xml;base64,')).toBe(true);
  expect(opened.requests).toEqual([]);
  expect(opened.origin).not.toBe(new URL(server).origin);
}

export async function previewLocal(page: Page, server: string, name: string, mimeType: string, bytes: Uint8Array): Promise<void> {
  await page.goto(`${server}/preview`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Select File to Preview' }).click();
  await (await chooser).setFiles({ name, mimeType, buffer: Buffer.from(bytes) });
  await page.getByRole('dialog', { name, exact: true }).waitFor();
}

export async function wordFrame(page: Page) {
  const frame = previewer(page).locator('iframe.word-view__frame');
  await frame.waitFor();
  return frame;
}

/** The srcdoc frame's document as Chromium parsed it (DevTools reaches a frame scripts cannot). */
export async function srcdocFrame(page: Page) {
  const handle = await previewer(page).locator('iframe.word-view__frame').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('no srcdoc frame');
  await frame.waitForLoadState('load');
  return frame;
}

/** Event-handler attributes in an HTML document, parsed inertly (DOMParser runs nothing). */
export function handlersIn(page: Page, html: string): Promise<string[]> {
  return page.evaluate((source) => {
    const parsed = new DOMParser().parseFromString(source, 'text/html');
    return [...parsed.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${element.localName} ${a.name}`),
    );
  }, html);
}

export async function pdfDrawn(page: Page, pageNumber = 1): Promise<void> {
  await previewer(page).locator(`.pdf-view[data-page="${pageNumber}"]`).waitFor();
}

export const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('base64');

export function builtAssets(prefix: string): string[] {
  const dir = join(WEB, 'dist', 'assets');
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.js'))
    .map((name) => join(dir, name));
}
