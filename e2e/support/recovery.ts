/** The recovery phrase steps as journeys go through them (docs/web-accounts.md "Recovery phrase"). */
import type { Page } from 'playwright-core';

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
