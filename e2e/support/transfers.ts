/**
 * Transfers in journeys: files picked in the Upload dialog or dropped on the listing, the
 * transfers panel that then shows them (issue 14), downloads from a row's menu, and the
 * deterministic bytes big test files are made of.
 */
import { expect } from 'bun:test';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';

/** The corner panel listing every upload and download. */
export const transfersPanel = (page: Page) => page.getByRole('region', { name: 'Transfers' });

/** One row of the panel, by the name it shows. */
export const transferRow = (page: Page, name: string) =>
  transfersPanel(page).locator('.transfer-row', { has: page.getByText(name, { exact: true }) });

/** Closes the panel, e.g. to get it off the rows it covers at the listing's bottom right. */
export async function closeTransfers(page: Page): Promise<void> {
  await transfersPanel(page).getByRole('button', { name: 'Close transfers' }).click();
}

/** Waits for the panel's docs/product.md "States" summary, e.g. 'All 3 files uploaded successfully!'. */
export async function waitForSummary(page: Page, text: string, timeout = 60_000): Promise<void> {
  await transfersPanel(page).getByRole('status').getByText(text, { exact: true }).waitFor({ timeout });
}

/** Picks files in the Upload File dialog; they start at once and the dialog closes. */
export async function pickFiles(page: Page, chosen: Parameters<Page['setInputFiles']>[1]): Promise<void> {
  await page.getByRole('button', { name: 'Upload File' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload files' });
  await dialog.waitFor();
  await dialog.locator('input[type="file"][multiple]').setInputFiles(chosen);
  await dialog.waitFor({ state: 'hidden' });
}

export interface DroppedFile {
  name: string;
  type?: string;
  /** The content, or a pseudoRandom(size, seed) made in the page (big files need not cross the wire). */
  bytes?: Uint8Array;
  random?: { size: number; seed: number };
}

/**
 * Drags files over the listing (or the element `on` selects) with real DragEvents carrying a
 * DataTransfer made in the page, and drops them unless `drop` is false (the drop target then
 * stays up, as while dragging). Answers whether the page cancelled the drop's default action
 * (the browser opening the file in the tab).
 */
export async function dragFiles(
  page: Page,
  files: DroppedFile[],
  { drop = true, on }: { drop?: boolean; on?: string } = {},
): Promise<boolean> {
  const wire = files.map((f) => ({
    name: f.name,
    type: f.type ?? 'application/octet-stream',
    b64: f.bytes ? Buffer.from(f.bytes).toString('base64') : undefined,
    random: f.random,
  }));
  await page
    .locator(on ?? '[data-testid="file-drop"]')
    .first()
    .waitFor();
  return page.evaluate(
    ({ wire, drop, on, generator }) => {
      const pseudoRandom = new Function(`return ${generator}`)() as (size: number, seed: number) => Uint8Array;
      const transfer = new DataTransfer();
      for (const f of wire) {
        const bytes = f.random
          ? pseudoRandom(f.random.size, f.random.seed)
          : Uint8Array.from(atob(f.b64 ?? ''), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type }));
      }
      const zone = document.querySelector('[data-testid="file-drop"]');
      const target = on ? document.querySelector(on) : (zone?.querySelector('.browser__body') ?? zone);
      if (!target) throw new Error('no listing to drop on');
      const fire = (type: string) =>
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      fire('dragenter');
      fire('dragover');
      // dispatchEvent answers false when a listener cancelled the default action.
      return drop ? !fire('drop') : false;
    },
    { wire, drop, on, generator: pseudoRandom.toString() },
  );
}

/** Ends a drag started with `dragFiles(..., { drop: false })` without dropping. */
export async function leaveDrag(page: Page): Promise<void> {
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'x'));
    document
      .querySelector('[data-testid="file-drop"] .browser__body')
      ?.dispatchEvent(new DragEvent('dragleave', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
}

/** Deterministic pseudo-random bytes (xorshift), fast enough for 50 MiB; self-contained so it also runs in the page. */
export function pseudoRandom(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  const view = new Uint32Array(out.buffer, 0, Math.floor(length / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < view.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    view[i] = x >>> 0;
  }
  for (let i = view.length * 4; i < length; i++) out[i] = i & 0xff;
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.length === b.length &&
    Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0
  );
}

/** Downloads the item `name` through its row's Actions menu and answers the bytes saved. */
export async function downloadViaMenu(page: Page, name: string): Promise<{ download: Download; bytes: Uint8Array }> {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  const started = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('menuitem', { name: 'Download' }).click();
  const got = await started;
  const path = await got.path();
  expect(await got.failure()).toBeNull();
  return { download: got, bytes: new Uint8Array(await readFile(path)) };
}

/** Downloads `name` through its row's Actions menu and expects exactly `bytes` saved; answers the download. */
export async function expectDownloadOf(page: Page, name: string, bytes: Uint8Array): Promise<Download> {
  const got = await downloadViaMenu(page, name);
  expect(sameBytes(got.bytes, bytes)).toBe(true);
  return got.download;
}
