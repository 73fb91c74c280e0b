/**
 * The account's tree, made through the real API with the real crypto (e2e/support/files.ts), as
 * the web app's worker makes items. Its shape, for `items` N (docs/benchmarks.md
 * "bench/big-account"):
 *   Largest/   `largest` items (four fifths empty folders, one fifth small files)
 *   Zip me/    `zipFiles` small files (100 B - 2 KiB), downloaded as one zip
 *   Zip few/   a tenth as many, zipped in the same tab first: what the zip's memory does with
 *              ten times the files, the tab and its search index the same
 *   Projects/Project NN/{docs,media,notes,archive}/   the rest, half small files, half folders,
 *              about 2,000 items a project; NEEDLES of the files are named "budget …"
 *   five small files at the top.
 */
import { ciphertextSize } from '@sealbox/crypto';
import { apiCreateFolder, apiUploadFile, type ApiFolder, type ApiSession } from '../../e2e/support/files.ts';
import { type AccountSize, CONCURRENCY, NEEDLE, NEEDLES } from './settings.ts';

/** One item to make: a folder, or a small file of `size` bytes. */
interface Job {
  parent: () => ApiFolder | null;
  name: string;
  size?: number;
}

export interface MadeAccount {
  largest: ApiFolder;
  zip: ApiFolder;
  zipFew: ApiFolder;
  /** Items made in the tree, all told. */
  items: number;
  /** Bytes the account's files take on the server (their ciphertext): what the storage meter shows. */
  usedBytes: number;
  /** Bytes of the zip folder's files, decrypted: the zip's entries. */
  zipBytes: number;
}

const SUBFOLDERS = ['docs', 'media', 'notes', 'archive'];
const TOP_FILES = 5;
/** What the top of the account lists: Largest, Zip me, Zip few, Projects and the five files. */
export const TOP_ITEMS = 4 + TOP_FILES;
const PER_PROJECT = 2000;
const pad = (i: number, width = 5) => String(i).padStart(width, '0');

/** Files in "Zip few": a tenth of the zip folder's. */
export const fewZipFiles = (size: AccountSize) => Math.max(1, Math.round(size.zipFiles / 10));

/** A small file's size, 100 B to 2 KiB, varied but the same every run. */
export const smallSize = (i: number) => 100 + ((i * 337) % 1949);

/** Deterministic bytes, so every file's content differs but the run is repeatable. */
function content(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (seed * 31 + i * 7) & 0xff;
  return bytes;
}

/** Runs `jobs` `concurrency` at a time, in order of start. */
export async function pool<T>(jobs: T[], run: (job: T, index: number) => Promise<void>, concurrency = CONCURRENCY) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        await run(jobs[i]!, i);
      }
    }),
  );
}

/** Splits `total` into `parts` near-equal whole counts. */
const split = (total: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));

/** Makes the account's tree; answers what the measures need. */
export async function makeTree(session: ApiSession, size: AccountSize): Promise<MadeAccount> {
  const top = async (name: string) => apiCreateFolder(session, null, name);
  const [largest, zip, zipFew, projects] = [
    await top('Largest'),
    await top('Zip me'),
    await top('Zip few'),
    await top('Projects'),
  ];
  const rest = size.items - TOP_ITEMS - size.largest - size.zipFiles - fewZipFiles(size);
  const projectCount = Math.max(1, Math.round(rest / PER_PROJECT));
  const leafItems = rest - projectCount * (1 + SUBFOLDERS.length);
  if (leafItems < NEEDLES) throw new Error(`${size.items} items are too few for this shape`);

  // The projects and their subfolders first (parents before children), then every leaf item.
  const leaves: ApiFolder[] = [];
  await pool(
    Array.from({ length: projectCount }, (_, p) => p),
    async (p) => {
      const project = await apiCreateFolder(session, projects, `Project ${pad(p + 1, 2)}`);
      for (const sub of SUBFOLDERS) leaves.push(await apiCreateFolder(session, project, sub));
    },
  );
  const jobs: Job[] = [];
  const fileJob = (parent: () => ApiFolder | null, name: string, i: number): Job => ({ parent, name, size: smallSize(i) });
  for (let i = 0; i < TOP_FILES; i++) jobs.push(fileJob(() => null, `readme ${i + 1}.txt`, i));
  for (let i = 0; i < size.largest; i++) {
    jobs.push(
      i % 5 === 4 ? fileJob(() => largest, `entry ${pad(i)}.txt`, i) : { parent: () => largest, name: `entry ${pad(i)}` },
    );
  }
  for (let i = 0; i < size.zipFiles; i++) jobs.push(fileJob(() => zip, `file ${pad(i)}.txt`, i));
  for (let i = 0; i < fewZipFiles(size); i++) jobs.push(fileJob(() => zipFew, `file ${pad(i)}.txt`, i));
  const perLeaf = split(leafItems, leaves.length);
  // The needles spread over the projects (several to a folder when folders are fewer), so a search
  // walks the whole tree; each takes the place of a file (even positions are files).
  const needleAt = new Map<string, number>();
  for (let n = 0; n < NEEDLES; n++) {
    const leaf = Math.floor((n * leaves.length) / NEEDLES);
    let i = 0;
    while (needleAt.has(`${leaf}:${i}`)) i += 2;
    needleAt.set(`${leaf}:${i}`, n + 1);
  }
  for (const [l, count] of perLeaf.entries()) {
    for (let i = 0; i < count; i++) {
      const parent = () => leaves[l]!;
      const needle = needleAt.get(`${l}:${i}`);
      if (needle !== undefined) jobs.push(fileJob(parent, `${NEEDLE} ${pad(needle, 2)}.xlsx`, l));
      else if (i % 2 === 1) jobs.push({ parent, name: `folder ${pad(i)}` });
      else jobs.push(fileJob(parent, `note ${pad(i)}.txt`, l * 7919 + i));
    }
  }
  const planted = jobs.filter((job) => job.name.startsWith(NEEDLE)).length;
  if (planted !== NEEDLES) throw new Error(`only ${planted} of ${NEEDLES} search needles fit in ${leaves.length} folders`);

  let usedBytes = 0;
  let zipBytes = 0;
  await pool(jobs, async (job, i) => {
    const parent = job.parent();
    if (job.size === undefined) {
      await apiCreateFolder(session, parent, job.name);
      return;
    }
    const bytes = content(job.size, i);
    await apiUploadFile(session, parent, job.name, bytes, 'text/plain');
    usedBytes += ciphertextSize(job.size);
    if (parent === zip) zipBytes += job.size;
  });
  const items = 4 + projectCount * (1 + SUBFOLDERS.length) + jobs.length;
  return { largest, zip, zipFew, items, usedBytes, zipBytes };
}
