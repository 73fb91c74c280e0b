/**
 * The previewer's security rules (docs/protocol.md "Threat table", issue 13 "Security tests") in
 * Chromium through the built app and the real server. Each payload would set `window.__pwned` or
 * ask for a unique /__pwned/... URL if it ran; both must stay untouched, no console error or CSP
 * violation may pass unlooked (browserSuite fails the test on any), and no decrypted blob URL may
 * become a page.
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
 * encrypted from /files. Screenshots of the pdf and Word views at 375 and 1280 px, light and dark.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { CONTENT_SECURITY_POLICY } from '../../../apps/server/src/http/plugins/security-headers.ts';
import { FRAME_CSS, WORD_FRAME_SANDBOX } from '../../../apps/web/src/features/preview/renderers/word/frame.ts';
import { createUser, type TestUser } from '../../support/accounts.ts';
import { apiCreateFolder, apiLogin, apiUploadFile, signInToFiles } from '../../support/files.ts';
import { saveScreenshot } from '../../support/screenshots.ts';
import { downloadViaMenu } from '../../support/transfers.ts';
import { browserSuite, skipWithoutBrowser, type BrowserOptions } from '../../support/suite.ts';

const SLOW = 180_000;
/** SEALBOX_E2E_WEB_DIST points the server at another build of the web app (e.g. one with a rule removed). */
const webDist: Record<string, string> = process.env.SEALBOX_E2E_WEB_DIST ? { WEB_DIST: process.env.SEALBOX_E2E_WEB_DIST } : {};
const suite = browserSuite({ timeoutMs: SLOW, server: { env: webDist } });
const WEB = join(import.meta.dir, '..', '..', '..', 'apps', 'web');
const PDFJS_VERSION: string = JSON.parse(readFileSync(join(WEB, 'node_modules', 'pdfjs-dist', 'package.json'), 'utf8')).version;

declare global {
  interface Window {
    __pwned?: unknown;
    __blobTypes?: Record<string, string>;
  }
}

// ---------------------------------------------------------------- payload files, built here

const DOCX_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="svg" ContentType="image/svg+xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const DOCX_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/>
</Relationships>`;
const DOCX_STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
</w:styles>`;

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

type Block =
  | { heading: 1 | 2; text: string }
  | { text: string; bold?: boolean }
  | { link: string; text: string }
  | { table: string[][] }
  | { svg: Uint8Array; alt: string };

/** A minimal .docx: content types, package and document relationships, styles, the document. */
function docx(blocks: Block[]): Uint8Array {
  const links: string[] = [];
  const media: Record<string, Uint8Array> = {};
  const run = (text: string, bold = false) =>
    `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${xml(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if ('heading' in block) {
        return `<w:p><w:pPr><w:pStyle w:val="Heading${block.heading}"/></w:pPr>${run(block.text)}</w:p>`;
      }
      if ('link' in block) {
        const id = `rIdLink${links.length}`;
        links.push(`<Relationship Id="${id}" Type="${REL}/hyperlink" Target="${xml(block.link)}" TargetMode="External"/>`);
        return `<w:p><w:hyperlink r:id="${id}">${run(block.text)}</w:hyperlink></w:p>`;
      }
      if ('svg' in block) {
        const id = `rIdImage${Object.keys(media).length}`;
        media[`word/media/${id}.svg`] = block.svg;
        links.push(`<Relationship Id="${id}" Type="${REL}/image" Target="media/${id}.svg"/>`);
        return (
          `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1143000" cy="762000"/><wp:docPr id="1" name="${id}" descr="${xml(block.alt)}"/>` +
          '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
          `<pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
        );
      }
      if ('table' in block) {
        const rows = block.table
          .map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`)
          .join('');
        return `<w:tbl>${rows}</w:tbl>`;
      }
      return `<w:p>${run(block.text, block.bold)}</w:p>`;
    })
    .join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>${body}</w:body></w:document>`;
  const documentRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>${links.join('')}
</Relationships>`;
  return zipSync({
    '[Content_Types].xml': strToU8(DOCX_TYPES),
    '_rels/.rels': strToU8(DOCX_RELS),
    'word/document.xml': strToU8(document),
    'word/styles.xml': strToU8(DOCX_STYLES),
    'word/_rels/document.xml.rels': strToU8(documentRels),
    ...media,
  });
}

/** Reads "invoice" + "exe.pdf" where bidi controls are obeyed; it is an .exe. */
const BIDI_NAME = 'invoice\u202Efdp.exe';
const SVG_PAYLOAD = strToU8(
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" onload="top.__pwned='svg-onload';fetch('/__pwned/svg-onload')"><script>top.__pwned='svg-script';fetch('/__pwned/svg-script')</script><rect width="120" height="80" fill="#3a7"/></svg>`,
);

/** Text that looks like HTML: it must reach the frame as text. */
const HTML_TEXT = `<img src=x onerror="top.__pwned='word-onerror';fetch('/__pwned/word-onerror')">`;
const SCRIPT_TEXT = `<script>top.__pwned='word-script';fetch('/__pwned/word-script')</script>`;
const CLICK_TEXT = `<a href="#" onclick="top.__pwned='word-onclick'">click</a>`;
const WORD_PAYLOAD = docx([
  { heading: 1, text: 'Quarterly notes' },
  { text: HTML_TEXT },
  { text: SCRIPT_TEXT },
  { text: CLICK_TEXT },
  { link: "javascript:top.__pwned='word-link';fetch('/__pwned/word-link')", text: 'Open the figures' },
  { link: 'https://example.com/figures', text: 'The figures online' },
  { link: 'data:text/html,<script>top.__pwned=1</script>', text: 'Data link' },
  { link: 'blob:https://example.com/0b7c', text: 'Blob link' },
  { link: '/api/files', text: 'Relative link' },
  { link: 'mailto:harbour@example.com', text: 'Mail link' },
  { svg: SVG_PAYLOAD, alt: `"><img src=x onerror="top.__pwned='word-alt'">` },
]);
const WORD_REPORT = docx([
  { heading: 1, text: 'Harbour renovation: quarterly report' },
  {
    text: 'The north quay reopened in March after eleven weeks of work. Foot traffic is back to its level of last spring, and the ferry timetable runs in full again.',
  },
  { heading: 2, text: 'Figures' },
  {
    table: [
      ['Item', 'Budget', 'Spent'],
      ['Quay wall', '120,000', '112,400'],
      ['Lighting', '18,000', '19,250'],
      ['Benches', '6,500', '4,900'],
    ],
  },
  { heading: 2, text: 'Next steps' },
  { text: 'Repaint the railings before the summer season.', bold: true },
  { text: 'Ask the council for the second grant; the form is due at the end of the month.' },
  { link: 'https://example.com/harbour', text: 'The plans online' },
]);

/** A pdf from its objects (1-based, in order), with a correct cross-reference table. */
function pdf(objects: string[]): Uint8Array {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0));
}
const stream = (content: string, extra = '') => `<< /Length ${content.length}${extra} >>\nstream\n${content}\nendstream`;

/**
 * CVE-2024-4367: pdf.js < 4.2.67 pasted a font's /FontMatrix into a glyph drawing function it
 * compiled with `new Function` (when eval was allowed). The font here is a Type1 whose matrix ends
 * in a string closing that call and running our marker; its text is filled with a tiling pattern,
 * which makes pdf.js draw glyphs as paths (the code that compiled them).
 */
const FONT_MATRIX_PAYLOAD = `(1\\); top.__pwned = 'pdf-fontmatrix'; fetch\\('/__pwned/pdf-fontmatrix'\\); //)`;
const PDF_PAYLOAD = (() => {
  const content = [
    '0.2 0.3 0.5 rg 40 700 520 2 re f',
    '/Pattern cs /P1 scn',
    'BT /F1 64 Tf 50 560 Td (AbCdEf) Tj ET',
    '0 g BT /F2 18 Tf 50 480 Td (A font matrix that carries script.) Tj ET',
  ].join('\n');
  const tile = '0.85 0.3 0.2 rg 0 0 8 8 re f 0.2 0.4 0.8 rg 8 8 8 8 re f';
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 4 0 R /Contents 5 0 R >>',
    '<< /Font << /F1 6 0 R /F2 9 0 R >> /Pattern << /P1 8 0 R >> >>',
    stream(content),
    `<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Payload /FirstChar 65 /LastChar 102 /Widths [${Array(38).fill(560).join(' ')}] /Encoding /WinAnsiEncoding /FontDescriptor 7 0 R /FontMatrix [0.001 0 0 0.001 0 ${FONT_MATRIX_PAYLOAD}] >>`,
    '<< /Type /FontDescriptor /FontName /ABCDEF+Payload /Flags 32 /FontBBox [-6 -12 579 713] /ItalicAngle 0 /Ascent 751 /Descent -173 /CapHeight 713 /StemV 100 /MissingWidth 250 /FontFile3 10 0 R >>',
    stream(
      tile,
      ' /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 16 16] /XStep 16 /YStep 16 /Resources << >>',
    ),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream('', ' /Subtype /Type1C'),
  ]);
})();

/** A plain three-page document for the screenshots and the page controls. */
const PDF_REPORT = (() => {
  const pages = [1, 2, 3];
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>');
  for (const n of pages) {
    const lines = [
      '0.16 0.33 0.62 rg 56 700 500 40 re f',
      `1 g BT /F1 22 Tf 70 713 Td (Harbour renovation, page ${n}) Tj ET`,
      '0.2 g',
      ...Array.from(
        { length: 14 },
        (_, i) => `BT /F1 12 Tf 56 ${660 - i * 22} Td (Line ${i + 1}: the north quay reopened after eleven weeks of work.) Tj ET`,
      ),
      `0.85 0.45 0.2 rg 56 ${300 - n * 30} ${120 * n} 60 re f`,
    ].join('\n');
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 3 0 R /Contents ${objects.length + 2} 0 R >>`);
    objects.push(stream(lines));
  }
  return pdf(objects);
})();

/** Japanese text in a font the pdf does not embed: pdf.js needs a CMap for it, and Helvetica. */
const PDF_CJK = (() => {
  const text = '<3053 3093 306B 3061 306F>'; // こんにちは in UCS-2
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 6 0 R >> >> /Contents 7 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /UniJIS-UCS2-H /DescendantFonts [5 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /FontDescriptor << /Type /FontDescriptor /FontName /KozMinPr6N-Regular /Flags 6 /FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 740 /StemV 80 >> >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream(`BT /F1 36 Tf 72 680 Td ${text} Tj ET BT /F2 18 Tf 72 620 Td (Hello from Helvetica) Tj ET`),
  ]);
})();

/** Not a pdf at all: an HTML page with script, named .pdf. pdf.js refuses it; the fallback frame
 * must show it as a pdf (and fail), never as the HTML it is. */
const FAKE_PDF = strToU8(
  `<!doctype html><script>top.__pwned='fake-pdf';fetch('/__pwned/fake-pdf')</script><img src=x onerror="top.__pwned='fake-pdf-onerror'">`,
);

// ---------------------------------------------------------------- helpers

const previewer = (page: Page) => page.locator('dialog.preview[open]');

interface Watch {
  /** Requests a payload would have made. */
  pwnedRequests: string[];
  /** Pages and top-level navigations to blob: URLs. */
  blobPages: string[];
  popups: string[];
}

/** Records what a payload would leave behind; call before the page does anything. */
function watch(page: Page): Watch {
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

async function expectNothingRan(page: Page, seen: Watch): Promise<void> {
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
async function openImageAddress(page: Page): Promise<{ src: string; requests: string[]; origin: string }> {
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
async function expectSvgAddressHarmless(page: Page): Promise<void> {
  const opened = await openImageAddress(page);
  expect(opened.src.startsWith('data:image/svg+xml;base64,')).toBe(true);
  expect(opened.requests).toEqual([]);
  expect(opened.origin).not.toBe(new URL(suite.server.url).origin);
}

async function previewLocal(page: Page, name: string, mimeType: string, bytes: Uint8Array): Promise<void> {
  await page.goto(`${suite.server.url}/preview`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Select File to Preview' }).click();
  await (await chooser).setFiles({ name, mimeType, buffer: Buffer.from(bytes) });
  await page.getByRole('dialog', { name, exact: true }).waitFor();
}

async function wordFrame(page: Page) {
  const frame = previewer(page).locator('iframe.word-view__frame');
  await frame.waitFor();
  return frame;
}

/** The srcdoc frame's document as Chromium parsed it (DevTools reaches a frame scripts cannot). */
async function srcdocFrame(page: Page) {
  const handle = await previewer(page).locator('iframe.word-view__frame').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('no srcdoc frame');
  await frame.waitForLoadState('load');
  return frame;
}

/** Event-handler attributes in an HTML document, parsed inertly (DOMParser runs nothing). */
function handlersIn(page: Page, html: string): Promise<string[]> {
  return page.evaluate((source) => {
    const parsed = new DOMParser().parseFromString(source, 'text/html');
    return [...parsed.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${element.localName} ${a.name}`),
    );
  }, html);
}

async function pdfDrawn(page: Page, pageNumber = 1): Promise<void> {
  await previewer(page).locator(`.pdf-view[data-page="${pageNumber}"]`).waitFor();
}

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('base64');

function builtAssets(prefix: string): string[] {
  const dir = join(WEB, 'dist', 'assets');
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.js'))
    .map((name) => join(dir, name));
}

// ---------------------------------------------------------------- the journeys

describe.skipIf(skipWithoutBrowser)('previewing hostile files runs nothing', () => {
  test(
    'Word: script, handlers and a javascript: link are cleaned, and the frame is sandboxed without scripts or our origin',
    async () => {
      const page = await suite.newBrowser();
      const seen = watch(page);
      await previewLocal(page, 'payload.docx', '', WORD_PAYLOAD);
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
      await previewLocal(page, 'minutes.doc', 'application/msword', doc);
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
      await previewLocal(page, 'font-matrix.pdf', 'application/pdf', PDF_PAYLOAD);
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
      await previewLocal(page, 'cjk.pdf', 'application/pdf', PDF_CJK);
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
      await previewLocal(page, 'not-really.pdf', 'text/html', FAKE_PDF);
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
      await previewLocal(page, 'badge.svg', 'image/svg+xml', SVG_PAYLOAD);
      const image = previewer(page).locator('img.image-view__image');
      await image.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('dialog.preview img.image-view__image');
        return img?.complete && img.naturalWidth > 0;
      });
      expect(await previewer(page).locator('svg script, object, embed, iframe').count()).toBe(0);
      await expectNothingRan(page, seen);
      await expectSvgAddressHarmless(page);
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
      await expectSvgAddressHarmless(page);
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

describe.skipIf(skipWithoutBrowser)('the pdf and Word views', () => {
  test(
    'pdf: the page box takes digits only within 1..count; previous/next; zoom stops at 0.2 and 5',
    async () => {
      const page = await suite.newBrowser({ width: 1280, height: 800 });
      await previewLocal(page, 'report.pdf', 'application/pdf', PDF_REPORT);
      await pdfDrawn(page);
      const view = previewer(page);
      const box = view.getByRole('textbox', { name: 'Page number' });
      expect(await view.getByText('of 3', { exact: true }).count()).toBe(1);
      await box.fill('');
      await box.pressSequentially('x2y');
      expect(await box.inputValue()).toBe('2');
      await box.press('Enter');
      await pdfDrawn(page, 2);
      await box.fill('9');
      await box.press('Enter');
      expect(await box.inputValue()).toBe('2');
      await view.getByRole('button', { name: 'Next page' }).click();
      await pdfDrawn(page, 3);
      expect(await view.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      await view.getByRole('button', { name: 'Previous page' }).click();
      await pdfDrawn(page, 2);

      const zoom = view.getByRole('status').or(view.locator('output.pdf-view__zoom'));
      const zoomIn = view.getByRole('button', { name: 'Zoom in' });
      const zoomOut = view.getByRole('button', { name: 'Zoom out' });
      while (!(await zoomOut.isDisabled())) await zoomOut.click();
      expect(await zoom.first().textContent()).toBe('20%');
      while (!(await zoomIn.isDisabled())) await zoomIn.click();
      expect(await zoom.first().textContent()).toBe('500%');
      await pdfDrawn(page, 2);
      expect(await view.locator('.pdf-view').getAttribute('data-zoom')).toBe('5');
      // Ctrl + wheel steps by 0.1.
      await view.locator('.pdf-view__stage').hover();
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, 100);
      await page.keyboard.up('Control');
      await view.locator('.pdf-view[data-zoom="4.9"]').waitFor();
    },
    SLOW,
  );

  test(
    'Word: zoom stops at 0.2 and 5, and the scaled frame still fills its stage',
    async () => {
      const page = await suite.newBrowser({ width: 1280, height: 800 });
      await previewLocal(page, 'report.docx', '', WORD_REPORT);
      const frame = await wordFrame(page);
      const view = previewer(page);
      const zoomOut = view.getByRole('button', { name: 'Zoom out' });
      const zoomIn = view.getByRole('button', { name: 'Zoom in' });
      const fills = async () => {
        const stage = await view.locator('.word-view__stage').boundingBox();
        const box = await frame.boundingBox();
        expect(Math.abs((box?.width ?? 0) - (stage?.width ?? 0))).toBeLessThan(2);
        expect(Math.abs((box?.height ?? 0) - (stage?.height ?? 0))).toBeLessThan(2);
      };
      await zoomOut.click();
      await zoomOut.click();
      await view.locator('.word-view[data-zoom="0.6"]').waitFor();
      await fills();
      await saveScreenshot(page, 'preview-word-1280-light-zoom-60', { fullPage: false });
      while (!(await zoomOut.isDisabled())) await zoomOut.click();
      expect(await view.locator('output.word-view__zoom').textContent()).toBe('20%');
      while (!(await zoomIn.isDisabled())) await zoomIn.click();
      expect(await view.locator('output.word-view__zoom').textContent()).toBe('500%');
      await fills();
      await view.getByRole('button', { name: 'Reset' }).click();
      await view.locator('.word-view[data-zoom="1"]').waitFor();
    },
    SLOW,
  );

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      test(
        `screenshots: pdf and Word at ${width} px, ${colorScheme}`,
        async () => {
          const options: BrowserOptions = { width, height: width > 600 ? 800 : 740, colorScheme };
          const page = await suite.newBrowser(options);
          await previewLocal(page, 'report.pdf', 'application/pdf', PDF_REPORT);
          await pdfDrawn(page);
          await saveScreenshot(page, `preview-pdf-${width}-${colorScheme}`, { fullPage: false });
          await page.keyboard.press('Escape');
          await previewer(page).waitFor({ state: 'detached' });
          await previewLocal(page, 'report.docx', '', WORD_REPORT);
          await wordFrame(page);
          await (await srcdocFrame(page)).getByText('Next steps').waitFor();
          await saveScreenshot(page, `preview-word-${width}-${colorScheme}`, { fullPage: false });
        },
        SLOW,
      );
    }
  }
});
