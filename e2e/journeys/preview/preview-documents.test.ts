/**
 * The pdf and Word views of the previewer (issue 13), in Chromium through the built app and the
 * real server, on /preview (no network): the pdf's page box, previous/next and zoom; Word's zoom
 * with its scaled frame still filling the stage. Screenshots of the pdf and Word views at 375 and
 * 1280 px, light and dark. What they must never run: preview-security.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import { saveScreenshot } from '../../support/screenshots.ts';
import { browserSuite, skipWithoutBrowser, type BrowserOptions } from '../../support/suite.ts';
import { PDF_REPORT, WORD_REPORT } from './payloads.ts';
import { pdfDrawn, previewLocal, previewer, srcdocFrame, webDist, wordFrame } from './previewer.ts';

const SLOW = 180_000;
const suite = browserSuite({ timeoutMs: SLOW, server: { env: webDist } });

describe.skipIf(skipWithoutBrowser)('the pdf and Word views', () => {
  test(
    'pdf: the page box takes digits only within 1..count; previous/next; zoom stops at 0.2 and 5',
    async () => {
      const page = await suite.newBrowser({ width: 1280, height: 800 });
      await previewLocal(page, suite.server.url, 'report.pdf', 'application/pdf', PDF_REPORT);
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
      await previewLocal(page, suite.server.url, 'report.docx', '', WORD_REPORT);
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
          await previewLocal(page, suite.server.url, 'report.pdf', 'application/pdf', PDF_REPORT);
          await pdfDrawn(page);
          await saveScreenshot(page, `preview-pdf-${width}-${colorScheme}`, { fullPage: false });
          await page.keyboard.press('Escape');
          await previewer(page).waitFor({ state: 'detached' });
          await previewLocal(page, suite.server.url, 'report.docx', '', WORD_REPORT);
          await wordFrame(page);
          await (await srcdocFrame(page)).getByText('Next steps').waitFor();
          await saveScreenshot(page, `preview-word-${width}-${colorScheme}`, { fullPage: false });
        },
        SLOW,
      );
    }
  }
});
