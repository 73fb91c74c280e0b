/**
 * The file browser as selection-keyboard.test.ts reads and drives it: rows, cards and the
 * selection bar by their names, the server's own listing of a folder, axe in both themes, and
 * where the keyboard's focus is.
 */
import { expect } from 'bun:test';
import type { Locator, Page } from 'playwright-core';
import { formatViolations, seriousViolations } from '../../support/axe.ts';
import type { ApiFolder, ApiSession } from '../../support/files.ts';

export const NO_EDIT_TEXT = 'You do not have permission to rename/move/delete this file';
export const bytes = (text: string) => new TextEncoder().encode(text);

export const body = (page: Page) => page.locator('.browser__body');
export const nameButton = (page: Page, name: string) => body(page).getByRole('button', { name, exact: true });
/**
 * Waits for the item named `name`; on a timeout the error lists what the listing showed, so a
 * row that is there but did not open ('Encrypted File') tells itself apart from a slow refresh.
 */
export async function waitForName(page: Page, name: string): Promise<void> {
  try {
    await nameButton(page, name).waitFor();
  } catch (error) {
    const shown = await body(page)
      .locator('tbody tr[data-item-id], li.file-card')
      .allInnerTexts()
      .catch(() => ['(the listing could not be read)']);
    throw new Error(`${name} never showed; the listing showed: ${JSON.stringify(shown)}`, { cause: error });
  }
}
export const row = (page: Page, name: string) =>
  page.locator('tbody tr[data-item-id]', { has: page.getByRole('button', { name, exact: true }) });
export const card = (page: Page, name: string) =>
  page.locator('li.file-card', { has: page.getByRole('button', { name, exact: true }) });
/** The list header's select-all (the selection bar has one too while items are selected). */
export const headerSelectAll = (page: Page) => page.locator('thead').getByRole('checkbox', { name: 'Select all' });
export const bar = (page: Page) => page.getByRole('region', { name: 'Selection' });
export const barButton = (page: Page, name: string) => bar(page).getByRole('button', { name, exact: true });

export async function count(page: Page, n: number): Promise<void> {
  await bar(page).getByText(`${n} selected`, { exact: true }).waitFor();
}

export async function toast(page: Page, text: string): Promise<void> {
  await page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true }).waitFor();
}

/** The ids the server lists directly under `folder`. */
export async function childIds(session: ApiSession, folder: ApiFolder): Promise<string[]> {
  const response = await fetch(`${session.baseUrl}/api/file?id=${folder.id}&depth=1&limit=1000&offset=0`, {
    headers: { cookie: session.cookie },
  });
  const listing = (await response.json()) as { files: Array<{ id: string; parentId: string | null }> };
  return listing.files
    .filter((f) => f.parentId === folder.id)
    .map((f) => f.id)
    .sort();
}

export async function selectedNames(page: Page, items: Locator): Promise<string[]> {
  return items
    .filter({ has: page.locator('input.select-box:checked') })
    .locator('.item-name__text')
    .allTextContents();
}

export async function openFolder(page: Page, name: string): Promise<void> {
  const before = new URL(page.url()).searchParams.get('parentId');
  await nameButton(page, name).click();
  await page.waitForURL((url) => url.searchParams.get('parentId') !== before);
}

export async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // The theme's colours fade over; axe must see where they land.
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    );
    expect(formatViolations(`${screen} (${colorScheme})`, await seriousViolations(page))).toBe('');
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** What the focused element is: its accessible-ish name and the item it belongs to. */
export function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      name: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim(),
      item: el?.closest('[data-item-id]')?.getAttribute('data-item-id') ?? null,
      tag: el?.tagName ?? '',
    };
  });
}

/** Focus back to the start of the page, where a keyboard user's Tab begins after a load. */
export async function fromTop(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Presses Tab (Shift+Tab backwards) until the focused element's name matches (maybe at once); fails after `max`. */
export async function tabTo(page: Page, name: string | RegExp, { back = false, max = 60 } = {}): Promise<void> {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  for (let i = 0; i < max; i++) {
    if (matches((await focused(page)).name)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${name}`);
}
