/**
 * What a file or folder may be called. Only a client can read names (the server stores them
 * sealed and sees ciphertext), so every client checks them before sending: the web app's
 * dialogs and uploads, and the command-line client alike. The server checks what it can see,
 * the sealed name's length (docs/protocol.md "Files and uploads").
 *
 * Duplicates are compared as people read names: trimmed, Unicode NFC, and case-insensitively,
 * since Windows and macOS treat "Report.pdf" and "report.pdf" as one file and a download or zip
 * of both would clash there (docs/web-files.md, "Names").
 */

export const NAME_TEXT = {
  blank: 'Enter a name.',
  slash: 'Names cannot contain "/" or "\\".',
  control: 'Names cannot contain control characters.',
  dots: 'A name cannot be only dots.',
} as const;

/** U+0000–U+001F and U+007F. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `name` cannot be used for an item (undefined: it can). Checked on the name as typed. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return NAME_TEXT.blank;
  if (/[/\\]/.test(trimmed)) return NAME_TEXT.slash;
  if (CONTROL.test(name)) return NAME_TEXT.control;
  if (/^\.+$/.test(trimmed)) return NAME_TEXT.dots;
  return undefined;
}

/** The form two names are compared in (see the module's comment). */
export function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase();
}

/** Whether `name` is already used by one of `names` (e.g. the decrypted names of the open folder). */
export function isNameTaken(name: string, names: Iterable<string | null>): boolean {
  const key = nameKey(name);
  for (const other of names) if (other !== null && nameKey(other) === key) return true;
  return false;
}

/** The first of `items` called `name` (compared as `isNameTaken` does); undecryptable names never match. */
export function findNamed<T extends { name: string | null }>(name: string, items: Iterable<T>): T | undefined {
  for (const item of items) if (item.name !== null && isNameTaken(name, [item.name])) return item;
  return undefined;
}

/** The refusal shown for a taken name; `isDirectory` is the kind of the item already there. */
export function nameTakenText(name: string, isDirectory: boolean): string {
  return `A ${isDirectory ? 'folder' : 'file'} named "${name.trim()}" already exists here.`;
}

/**
 * A free name for "keep both": "name (1).ext", "name (2).ext", ... (the extension kept, as
 * Drive and desktop file managers do); `name` itself when it is free. A name already numbered
 * goes on counting: "name (1).ext" gives "name (2).ext", not "name (1) (1).ext".
 */
export function freeName(name: string, names: Iterable<string | null>): string {
  const taken = new Set<string>();
  for (const other of names) if (other !== null) taken.add(nameKey(other));
  const trimmed = name.trim();
  if (!taken.has(nameKey(trimmed))) return trimmed;
  const dot = trimmed.lastIndexOf('.');
  const [whole, ext] = dot > 0 ? [trimmed.slice(0, dot), trimmed.slice(dot)] : [trimmed, ''];
  const numbered = /^(.*\S) \((\d{1,9})\)$/.exec(whole);
  const stem = numbered ? numbered[1]! : whole;
  for (let n = numbered ? Number(numbered[2]) + 1 : 1; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}
