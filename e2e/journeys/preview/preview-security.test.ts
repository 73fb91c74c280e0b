/**
 * The previewer's security rules (docs/protocol.md "Threat table", issue 13 "Security tests") in
 * Chromium through the built app and the real server. Each payload (payloads.ts) would set
 * `window.__pwned` or ask for a unique /__pwned/... URL if it ran; both must stay untouched, no
 * console error or CSP violation may pass unlooked (browserSuite fails the test on any), and no
 * decrypted blob URL may become a page.
 * - Word: a .docx whose hyperlink targets javascript:, whose text looks like HTML (script, onerror,
 *   onclick) and must stay text; mammoth's HTML is cleaned by DOMPurify and shown in a srcdoc
 *   frame sandboxed without allow-scripts or allow-same-origin; the frame's one <style> is the
 *   one the CSP's hash allows. A .doc shows 'Failed to load Word document.'.
 * - Pdf: the CVE-2024-4367 FontMatrix payload (a Type1 font whose /FontMatrix carries script,
 *   text filled with a pattern so glyphs go through the path code); pdf.js pinned past the fix,
 *   with no eval left in what we ship and none allowed by the CSP; its worker from our origin.
 *   A file pdf.js cannot read falls back to a frame of an application/pdf blob, never HTML.
 * - SVG with a script and an onload handler: shown by <img> of a data: URL, runs nothing; its
 *   address opened at top level ("copy image address") reaches nothing of our origin.
 * The local journeys use /preview (no network); one journey previews the three uploaded
 * encrypted from /files. The pdf and Word views themselves: preview-documents.test.ts.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { CONTENT_SECURITY_POLICY } from '../../../apps/server/src/http/plugins/security-headers.ts';
import { FRAME_CSS, WORD_FRAME_SANDBOX } from '../../../apps/web/src/features/preview/renderers/word/frame.ts';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, signInToFiles } from '../../support/files.ts';
import { downloadViaMenu } from '../../support/transfers.ts';
import { browserSuite, skipWithoutBrowser } from '../../support/suite.ts';
import {
  BIDI_NAME,
  CLICK_TEXT,
  FAKE_PDF,
  HTML_TEXT,
  PDF_CJK,
  PDF_PAYLOAD,
  SCRIPT_TEXT,
  SVG_PAYLOAD,
  WORD_PAYLOAD,
} from './payloads.ts';
import {
  PDFJS_VERSION,
  WEB,
  builtAssets,
  expectNothingRan,
  expectSvgAddressHarmless,
  handlersIn,
  pdfDrawn,
  previewLocal,
  previewer,
  sha256,
  srcdocFrame,
  watch,
  webDist,
  wordFrame,
} from './previewer.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: webDist } });

describe.skipIf(skipWithoutBrowser)('previewing hostile files runs nothing', () => {
  test(
    'Word: script, handlers and a javascript: link are cleaned, and the frame is sandboxed without scripts or our origin',
    async () => {
      const page = await suite.newBrowser();
      const seen = watch(page);
      await previewLocal(page, suite.server.url, 'payload.docx', '', WORD_PAYLOAD);
      const frame = await wordFrame(page);

      // The sandbox rule: exactly our tokens, never scripts nor same-origin.
      const sandbox = (await frame.getAttribute('sandbox')) ?? '';
      expect(sandbox).toBe(WORD_FRAME_SANDBOX);
      expect(sandbox.split(/\s+/)).not.toContain('allow-scripts');
      expect(sandbox.split(/\s+/)).not.toContain('allow-same-origin');

      // The DOMPurify rule: nothing executable is left in the frame's document.
      const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
      expect(srcdoc).not.toMatch(/javascript:/i);
      expect(srcdoc).not.toMatch(/<script/i);
      expect(await handlersIn(page, srcdoc)).toEqual([]);
      expect(srcdoc).toContain(`<style>${FRAME_CSS}</style>`);
      const styleSrc = CONTENT_SECURITY_POLICY.split(';').find((d) => d.trim().startsWith('style-src')) ?? '';
      expect(styleSrc.trim()).toBe(`style-src 'self' 'sha256-${sha256(FRAME_CSS)}'`);

      // As parsed: the HTML-looking text is text, the javascript: link has no href left, the web
      // link opens a new tab cut off from us.
      const inside = await srcdocFrame(page);
      const text = await inside.locator('main').textContent();
      for (const literal of [HTML_TEXT, SCRIPT_TEXT, CLICK_TEXT]) expect(text).toContain(literal);
      expect(await inside.locator('script, [onclick], [onerror], [onload]').count()).toBe(0);
      // The drawing: an <img> of a data: SVG (its script never runs there), its alt text only text.
      const images = inside.locator('img');
      expect(await images.count()).toBe(1);
      expect((await images.getAttribute('src'))?.startsWith('data:image/svg+xml;base64,')).toBe(true);
      expect(await images.getAttribute('alt')).toBe(`"><img src=x onerror="top.__pwned='word-alt'">`);
      const evil = inside.getByText('Open the figures', { exact: true });
      expect(await evil.getAttribute('href')).toBeNull();
      const web = inside.getByText('The figures online', { exact: true });
      expect(await web.getAttribute('href')).toBe('https://example.com/figures');
      expect(await web.getAttribute('target')).toBe('_blank');
      expect(await web.getAttribute('rel')).toBe('noopener noreferrer');
      for (const name of ['Data link', 'Blob link', 'Relative link']) {
        expect(await inside.getByText(name, { exact: true }).getAttribute('href')).toBeNull();
      }
      expect(await inside.getByText('Mail link', { exact: true }).getAttribute('href')).toBe('mailto:harbour@example.com');
      await evil.click();
      // The frame's one style is the one the CSP allows by hash (a mismatch is a CSP violation,
      // which the suite reports too): the page is white.
      expect(await inside.locator('html').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
      await expectNothingRan(page, seen);
    },
    SLOW,
  );

  test(
    'Word: a .doc (or anything mammoth cannot read) shows the docs/product.md "Messages" text',
    async () => {
      const page = await suite.newBrowser();
      const seen = watch(page);
      // An old binary .doc starts with the OLE2 signature; mammoth reads only .docx.
      const doc = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...strToU8(SCRIPT_TEXT)]);
      await previewLocal(page, suite.server.url, 'minutes.doc', 'application/msword', doc);
      await previewer(page).getByText('Failed to load Word document.', { exact: true }).waitFor();
      expect(await previewer(page).locator('iframe').count()).toBe(0);
      await expectNothingRan(page, seen);
    },
    SLOW,
  );

  test(
    'pdf: the CVE-2024-4367 FontMatrix payload draws and runs nothing; no eval in pdf.js or the CSP; its worker is ours',
    async () => {
      // The rules behind it, as shipped: pdf.js past the fix, no eval path left in the bundles
      // (pdfjs-dist 6 removed isEvalSupported with the code it guarded), no 'unsafe-eval'.
      const version = PDFJS_VERSION;
      const [major = 0, minor = 0, patch = 0] = String(version).split('.').map(Number);
      expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(4_002_067);
      const pinned = JSON.parse(readFileSync(join(WEB, 'package.json'), 'utf8')).dependencies['pdfjs-dist'];
      expect(pinned).toBe(version);
      const bundles = [...builtAssets('pdf.worker-'), ...builtAssets('PdfView-')];
      expect(bundles.length).toBe(2);
      for (const file of bundles) expect(readFileSync(file, 'utf8')).not.toMatch(/new Function\s*\(|[^\w$.]eval\s*\(/);
      const scriptSrc = CONTENT_SECURITY_POLICY.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
      expect(scriptSrc).not.toContain("'unsafe-eval'");

      const page = await suite.newBrowser();
      const seen = watch(page);
      const workers: string[] = [];
      page.on('worker', (worker) => workers.push(worker.url()));
      const served = await page.goto(`${suite.server.url}/preview`);
      expect(served?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      await previewLocal(page, suite.server.url, 'font-matrix.pdf', 'application/pdf', PDF_PAYLOAD);
      await pdfDrawn(page);
      expect(await previewer(page).locator('iframe').count()).toBe(0);
      const pdfWorker = workers.find((url) => /\/assets\/pdf\.worker-[\w-]+\.js$/.test(url));
      expect(pdfWorker?.startsWith(`${suite.server.url}/assets/`)).toBe(true);
      await expectNothingRan(page, seen);
    },
    SLOW,
  );

  test(
    "pdf: the CMap a pdf needs comes from our origin's /assets/pdfjs-<version>/, nothing from elsewhere",
    async () => {
      const page = await suite.newBrowser();
      const seen = watch(page);
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await previewLocal(page, suite.server.url, 'cjk.pdf', 'application/pdf', PDF_CJK);
      await pdfDrawn(page);
      expect(await previewer(page).locator('iframe').count()).toBe(0);
      const data = `${suite.server.url}/assets/pdfjs-${PDFJS_VERSION}/`;
      expect(requests).toContain(`${data}cmaps/UniJIS-UCS2-H.bcmap`);
      const elsewhere = requests.filter(
        (url) => !url.startsWith(`${suite.server.url}/`) && !url.startsWith('blob:') && !url.startsWith('data:'),
      );
      expect(elsewhere).toEqual([]);
      await expectNothingRan(page, seen);
    },
    SLOW,
  );

  test(
    'pdf: a file pdf.js cannot read falls back to a frame of an application/pdf blob, never to a page or HTML',
    async () => {
      const page = await suite.newBrowser();
      const seen = watch(page);
      // The type of each blob behind an object URL (the CSP lets no one fetch a blob: URL to look).
      await page.addInitScript(() => {
        const make = URL.createObjectURL.bind(URL);
        window.__blobTypes = {};
        URL.createObjectURL = (object: Blob | MediaSource) => {
          const url = make(object);
          if (object instanceof Blob && window.__blobTypes) window.__blobTypes[url] = object.type;
          return url;
        };
      });
      // Typed text/html by its maker (the name says pdf): the frame must still read it as a pdf.
      await previewLocal(page, suite.server.url, 'not-really.pdf', 'text/html', FAKE_PDF);
      const fallback = previewer(page).locator('iframe.pdf-view__fallback');
      await fallback.waitFor();
      const src = (await fallback.getAttribute('src')) ?? '';
      expect(src.startsWith(`blob:${suite.server.url}/`)).toBe(true);
      expect(await page.evaluate((url) => window.__blobTypes?.[url], src)).toBe('application/pdf');
      await expectNothingRan(page, seen);
    },
    SLOW,
  );

  test(
    'SVG: a script and an onload handler do not run (shown by <img>)',
    async () => {
      const page = await suite.newBrowser();
      const seen = watch(page);
      await previewLocal(page, suite.server.url, 'badge.svg', 'image/svg+xml', SVG_PAYLOAD);
      const image = previewer(page).locator('img.image-view__image');
      await image.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('dialog.preview img.image-view__image');
        return img?.complete && img.naturalWidth > 0;
      });
      expect(await previewer(page).locator('svg script, object, embed, iframe').count()).toBe(0);
      await expectNothingRan(page, seen);
      await expectSvgAddressHarmless(page, suite.server.url);
    },
    SLOW,
  );
});

describe.skipIf(skipWithoutBrowser)('the hostile files, uploaded encrypted and previewed from /files', () => {
  let owner: TestUser;
  let folderId = '';

  beforeAll(async () => {
    owner = await createUser(suite.server.url);
    const session = await apiLogin(suite.server.url, owner);
    const folder = await apiCreateFolder(session, null, 'hostile');
    folderId = folder.id;
    await apiUploadFile(session, folder, 'payload.docx', WORD_PAYLOAD);
    await apiUploadFile(session, folder, 'font-matrix.pdf', PDF_PAYLOAD, 'application/pdf');
    await apiUploadFile(session, folder, 'badge.svg', SVG_PAYLOAD, 'image/svg+xml');
    await apiUploadFile(session, folder, BIDI_NAME, strToU8('not a pdf\n'), 'application/pdf');
  }, SLOW);

  test(
    'each previews through the crypto worker and runs nothing',
    async () => {
      const page = await signInToFiles(await suite.newBrowser(), suite.server.url, owner);
      const seen = watch(page);
      await page.goto(`${suite.server.url}/files?parentId=${folderId}&sortBy=name&sortOrder=asc`);
      await page.locator('.browser__body').getByText('payload.docx').first().waitFor();
      const open = async (name: string) => {
        await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
        await page.getByRole('menuitem', { name: /^Preview/ }).click();
        await page.getByRole('dialog', { name, exact: true }).waitFor();
      };
      const close = async () => {
        await page.keyboard.press('Escape');
        await previewer(page).waitFor({ state: 'detached' });
      };

      await open('payload.docx');
      const frame = await wordFrame(page);
      expect(await frame.getAttribute('sandbox')).toBe(WORD_FRAME_SANDBOX);
      const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
      expect(srcdoc).not.toMatch(/javascript:|<script/i);
      expect(await handlersIn(page, srcdoc)).toEqual([]);
      await close();

      await open('font-matrix.pdf');
      await pdfDrawn(page);
      await close();

      await open('badge.svg');
      await previewer(page).locator('img.image-view__image').waitFor();
      await expectNothingRan(page, seen);
      // The decrypted SVG's address, opened at top level, runs nothing in our origin (issue 21).
      await expectSvgAddressHarmless(page, suite.server.url);
      await close();

      // A name with a right-to-left override reads as what it is, listed and saved (issue 21).
      const shown = 'invoice[U+202E]fdp.exe';
      await page.locator('.browser__body').getByText(shown, { exact: true }).first().waitFor();
      expect(await page.locator('.browser__body').getByText('fdp.exe', { exact: false }).first().textContent()).not.toContain(
        '\u202E',
      );
      const { download } = await downloadViaMenu(page, shown);
      expect(download.suggestedFilename()).toBe(shown);
    },
    SLOW,
  );
});
