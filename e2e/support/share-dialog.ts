/** The owner's Share dialog as journeys drive it: opened from an item's menu, and its toasts. */
import type { Locator, Page } from 'playwright-core';

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

/**
 * Searches the open Share dialog for `username`, whose keys differ from the pinned ones, and adds
 * them as viewer: answers the 'Keys changed' step that stops the share until it is answered.
 */
export async function addWithChangedKeys(dialog: Locator, username: string): Promise<Locator> {
  await dialog.getByLabel('Add people').fill(username);
  const row = dialog.getByRole('list', { name: 'Search results' }).getByRole('listitem').filter({ hasText: username });
  await row.getByText('Keys changed').waitFor();
  await row.getByRole('button', { name: `Add ${username} as viewer` }).click();
  const warning = dialog.getByRole('alertdialog', { name: 'Keys changed' });
  await warning.waitFor();
  return warning;
}
