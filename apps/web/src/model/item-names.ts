/** What an item is called where its name is unknown (SPEC 2: it did not decrypt, or is empty): one wording everywhere. */
export const ENCRYPTED_DIRECTORY = 'Encrypted directory';
export const ENCRYPTED_FILE = 'Encrypted File';

/** An item's name, or the wording for an unknown one (rows, crumbs, dialogs, download names). */
export function displayName({ name, isDirectory }: { name: string | null; isDirectory: boolean }): string {
  if (name !== null && name !== '') return name;
  return isDirectory ? ENCRYPTED_DIRECTORY : ENCRYPTED_FILE;
}
