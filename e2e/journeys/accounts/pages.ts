/**
 * What the account journeys (accounts.test.ts, account-screens.test.ts) read off a page: where it
 * is, a toast, a field's message; and the password their made-up users share.
 */
import type { Page } from 'playwright-core';

export const PASSWORD = 'correct horse battery';

export const pathOf = (page: Page) => new URL(page.url()).pathname;
export const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true });
export const fieldMessage = (page: Page, text: string) => page.locator('.field__message').getByText(text, { exact: true });
