/**
 * The whole own tree for a build of the search index (docs/web-files.md "The search index of My
 * Files"): GET /api/file/tree a page at a time, each page's keys and names opened while the next
 * page is on its way, so the network and the crypto overlap instead of following each other.
 */
import { OWN_SCOPE } from '../../model/browse-scope.ts';
import type { ItemView, ServerItem } from '../../model/items.ts';
import { bytes } from '../api.ts';
import { CodedError } from '../coded-error.ts';
import { foregroundIdle } from '../foreground.ts';
import { openItems } from '../items.ts';
import { AnchoredPages } from './anchored.ts';

/** Items per page: about 2 MB of JSON, so the first names open early and no page is one giant parse. */
export const TREE_PAGE = 5000;

/** Where a walk's time went, in ms: waiting for pages no opening hid (parsing included), parsing, opening. */
export interface WalkTimes {
  fetch: number;
  parse: number;
  open: number;
  pages: number;
}

const pageError = (code: string, message: string) => new CodedError('SearchIndexError', code, message);

interface Page {
  files: ServerItem[];
  next: string | null;
  total?: number | undefined;
}

type Fetched = Page & { parseMs: number };

/** A page, fetched and parsed apart (the parse runs on this thread; `parseMs` says how long it took). */
async function fetchPage(after: string | null): Promise<Fetched> {
  // The server is shared too: a page is asked for when nothing the page waits on is running.
  await foregroundIdle();
  const response = await bytes.tree({ limit: TREE_PAGE, ...(after === null ? {} : { after }) });
  if (!response.ok) throw pageError(`HTTP_${response.status}`, `The tree failed (${response.status})`);
  const text = await response.text();
  const started = performance.now();
  let page: Partial<Page>;
  try {
    page = JSON.parse(text);
  } catch {
    throw pageError('BAD_PAGE', 'A page of the tree is not JSON');
  }
  if (!Array.isArray(page.files) || !(page.next === null || typeof page.next === 'string'))
    throw pageError('BAD_PAGE', 'A page of the tree has no files or next');
  const total = typeof page.total === 'number' ? page.total : undefined;
  return { files: page.files, next: page.next, total, parseMs: performance.now() - started };
}

/**
 * Every own item that reaches the top level, opened (undecrypted ones included, as a listing
 * gives them); `onProgress` hears the items handled so far of the total the first page gave.
 */
export async function walkOwnTree(
  onProgress?: (handled: number, total: number) => void,
  times?: Partial<WalkTimes>,
): Promise<ItemView[]> {
  const anchored = new AnchoredPages();
  const out: ItemView[] = [];
  let fetchMs = 0;
  let openMs = 0;
  let pages = 0;
  let handled = 0;
  let total = 0;
  let parseMs = 0;
  let next: Promise<Fetched> | undefined = fetchPage(null);
  while (next) {
    const waited = performance.now();
    const page: Fetched = await next;
    fetchMs += performance.now() - waited;
    parseMs += page.parseMs;
    pages++;
    total = page.total ?? total;
    // Asked for before this page is opened: the server and the network work meanwhile.
    // An empty page ends the walk too: a server that keeps answering nothing cannot spin it.
    next = page.next === null || page.files.length === 0 ? undefined : fetchPage(page.next);
    // Awaited next time round; should opening throw first, its failure is not an unhandled one.
    next?.catch(() => undefined);
    const opening = performance.now();
    const batch = anchored.take(page.files);
    // Slice by slice, each after the calls the page is waiting on (foreground.ts).
    const views = batch.length > 0 ? await openItems(OWN_SCOPE, batch, { beforeSlice: foregroundIdle, once: true }) : [];
    openMs += performance.now() - opening;
    anchored.settle(views.filter((view) => view.decrypted).map((view) => view.id));
    out.push(...views);
    handled += page.files.length;
    onProgress?.(Math.min(handled, total), Math.max(total, handled));
  }
  if (times) Object.assign(times, { fetch: fetchMs, parse: parseMs, open: openMs, pages });
  return out;
}
