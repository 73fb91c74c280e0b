/**
 * The recovery phrase steps as journeys go through them (docs/web-accounts.md "Recovery phrase"),
 * and the files a journey that changes how an account gets in (a new password, a recovery phrase,
 * a recovery code) checks are still there and open.
 */
import type { Page } from 'playwright-core';
import { apiUploadFile, apiUserWithFolder } from './files.ts';

/**
 * Reads the new phrase on screen, goes on, types back the three words asked for and saves;
 * answers the phrase, as the user would have written it down.
 */
export async function passRecoveryStep(page: Page): Promise<string> {
  const list = page.getByRole('list', { name: 'Your recovery phrase' });
  await list.waitFor({ timeout: 60_000 });
  const words = (await list.locator('li').allTextContents()).map((text) => text.trim().split(/\s+/).at(-1)!);
  await page.getByRole('button', { name: 'I have written them down' }).click();
  const inputs = page.locator('input[name^="word-"]');
  await inputs.first().waitFor();
  for (const input of await inputs.all()) {
    const n = Number((await input.getAttribute('name'))!.slice('word-'.length));
    await input.fill(words[n - 1]!);
  }
  await page.getByRole('button', { name: 'Save recovery phrase' }).click();
  return words.join(' ');
}

/** A new account with a folder 'Trip 2026' holding notes.txt ('Ferry at 7:40.'); its API session and the folder. */
export async function apiUserWithNotes(baseUrl: string) {
  const made = await apiUserWithFolder(baseUrl, 'Trip 2026');
  await apiUploadFile(made.session, made.folder, 'notes.txt', new TextEncoder().encode('Ferry at 7:40.\n'), 'text/plain');
  return made;
}

/** From My Files, opens 'Trip 2026' and notes.txt and waits for its text: decrypted, so the keys are right. */
export async function openNotes(page: Page): Promise<void> {
  await page.locator('.browser__body').getByText('Trip 2026').first().click();
  await page.locator('.browser__body').getByText('notes.txt').first().click();
  await page.getByRole('dialog', { name: 'notes.txt' }).getByText('Ferry at 7:40.').waitFor();
}
