/**
 * Duplicate names on upload (issue 14): only the client can read names, so before files go up
 * they are compared with the decrypted names of the open folder (every page of it) and with the
 * uploads already heading there. On a clash the user chooses, per file or for all: keep both
 * (the new file takes the next free "name (1).ext"), replace (the file becomes a new version of the
 * old one: same id, shares and links, the old content kept as an earlier version; only offered
 * with edit permission on it) or skip. A folder is never replaced: keep both or skip.
 */
import { freeName, nameKey } from '../items/index.ts';
import { signInGeneration } from './sign-in-generation.ts';
import { type BrowseScope, scopeName } from '../../model/browse-scope.ts';
import { namesBeingUploaded, startUploads, type UploadPlan } from './transfer-store.ts';

export type ClashChoice = 'keep' | 'replace' | 'skip';

/** What is already in the folder (the listing's items). */
export interface ExistingItem {
  id: string;
  name: string | null;
  isDirectory: boolean;
  /** Whether this user may change the item: Replace uploads a new version of it, so it needs this. */
  editPermission: boolean;
}

export interface ClashQuestion {
  name: string;
  /** False for a folder, an upload under way or an item this user may not change: replace is not offered. */
  canReplace: boolean;
  isDirectory: boolean;
  /** Clashes still to decide, this one included ("apply to all" is offered from 2 up). */
  remaining: number;
  /** What brings the item in: an upload (the default) or a restore from the trash. */
  action?: 'upload' | 'restore';
}

export interface ClashAnswer {
  choice: ClashChoice;
  /** Use the same choice for the remaining clashes of this pick. */
  all: boolean;
}

/**
 * The uploads to start for `files`, asking `ask` about each name already taken in the folder
 * (`existing`) or by an upload under way there (`busy`). Files later in the same pick see the
 * names the earlier ones took.
 */
export async function planUploads(
  files: readonly File[],
  existing: readonly ExistingItem[],
  busy: readonly string[],
  ask: (question: ClashQuestion) => Promise<ClashAnswer>,
): Promise<UploadPlan[]> {
  const byName = new Map<string, ExistingItem>();
  for (const item of existing) if (item.name !== null) byName.set(nameKey(item.name), item);
  const taken: string[] = [...byName.keys(), ...busy];
  const takenKeys = new Set(taken.map(nameKey));
  const clashes = files.filter((f) => takenKeys.has(nameKey(f.name))).length;

  const plans: UploadPlan[] = [];
  let asked = 0;
  let always: ClashChoice | undefined;
  for (const file of files) {
    const key = nameKey(file.name);
    if (!takenKeys.has(key)) {
      plans.push({ file });
      taken.push(file.name);
      takenKeys.add(key);
      continue;
    }
    const old = byName.get(key);
    // Only a file listed in the folder, that this user may change, can be replaced (not a
    // folder, nor an upload under way): Replace uploads a new version of it.
    const canReplace = old !== undefined && !old.isDirectory && old.editPermission;
    let choice = always;
    if (!choice) {
      const answer = await ask({
        name: file.name,
        canReplace,
        isDirectory: old?.isDirectory ?? false,
        remaining: Math.max(1, clashes - asked),
      });
      asked++;
      choice = answer.choice;
      if (answer.all) always = choice;
    }
    if (choice === 'skip') continue;
    if (choice === 'replace' && canReplace && old) {
      // Under the old file's own name (the pick may differ in case): a version makes no new name.
      plans.push({ file, name: old.name ?? file.name, versionOf: old.id });
      // Replaced once: a second file of this name in the same pick keeps both.
      byName.delete(key);
      continue;
    }
    const name = freeName(file.name, taken);
    plans.push(name === file.name ? { file } : { file, name });
    taken.push(name);
    takenKeys.add(nameKey(name));
  }
  return plans;
}

/** The pick or drop being planned per folder: the next one waits for it (see `uploadInto`). */
const planning = new Map<string, Promise<void>>();

/**
 * Plans `files` for the folder `parentId` and starts them. Picks and drops into one folder are
 * planned one after the other: a second drop while the first one's duplicate question is open
 * sees the names the first one took, so two files never get the same name unasked.
 * `existing` is read when this pick's turn comes (the listing may have changed meanwhile).
 */
export function uploadInto(
  files: readonly File[],
  target: { parentId: string | null; scope: BrowseScope },
  existing: () => readonly ExistingItem[],
  ask: (question: ClashQuestion) => Promise<ClashAnswer>,
): Promise<void> {
  const { parentId, scope } = target;
  const key = `${scopeName(scope)}/${parentId ?? ''}`;
  const generation = signInGeneration();
  const turn = (planning.get(key) ?? Promise.resolve()).then(async () => {
    const plans = await planUploads(files, existing(), namesBeingUploaded(parentId), ask);
    if (plans.length > 0 && generation === signInGeneration()) startUploads(plans, parentId, scope);
  });
  const done = turn.catch(() => undefined);
  planning.set(key, done);
  void done.then(() => {
    if (planning.get(key) === done) planning.delete(key);
  });
  return turn;
}
