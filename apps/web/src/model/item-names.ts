/**
 * What an item is called where its name is unknown (docs/product.md "Screens": it did not decrypt,
 * or is empty): one wording everywhere.
 */
import { DELETED_ACCOUNT_TEXT, isDeletedAccountName } from '@sealbox/rules';

export const ENCRYPTED_DIRECTORY = 'Encrypted directory';
export const ENCRYPTED_FILE = 'Encrypted File';

/**
 * Characters that reorder the text around them (right-to-left override, isolates, marks). In a
 * name another user chose they can make "invoice\u202Efdp.exe" read "invoice" + "exe.pdf".
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * `text` with every bidi control written out as its code point ("[U+202E]"), so it can reorder
 * nothing of what is shown: names and usernames from other users (or a hostile server) pass here
 * before they are shown or saved (docs/web-files.md "Names from others").
 */
export function visibleText(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** A username from the server as shown: "Deleted account" for one that is gone (@sealbox/rules). */
export function shownUsername(username: string): string {
  return isDeletedAccountName(username) ? DELETED_ACCOUNT_TEXT : visibleText(username);
}

/** An item's name as shown, or the wording for an unknown one (rows, crumbs, dialogs, download names). */
export function displayName({ name, isDirectory }: { name: string | null; isDirectory: boolean }): string {
  if (name !== null && name !== '') return visibleText(name);
  return isDirectory ? ENCRYPTED_DIRECTORY : ENCRYPTED_FILE;
}
