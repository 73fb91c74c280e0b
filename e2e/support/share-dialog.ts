/** The owner's Share dialog as journeys drive it: opened from an item's menu, and its toasts. */
import type { Page } from 'playwright-core';

export async function openShare(page: Page, name: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: `Share ${name}` });
  await dialog.waitFor();
  return dialog;
}

export const toastText = (page: Page, text: string) => page.locator('.sb-toaster').getByText(text, { exact: true }).first();
