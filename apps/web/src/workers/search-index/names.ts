/**
 * A first search from the names record alone (docs/web-files.md "Search"), while the whole index
 * is still being opened: the same match as memory.ts (the trimmed query, lower-cased, anywhere
 * in the lower-cased name), run over one lower-cased text instead of 100,000 strings. Its results
 * carry only what the names record has (id, name, folder, kind), so the answer is `partial`: the
 * page does not open or sort by what it lacks until the whole index answers. Pure: no I/O.
 */
import { extensionOf } from '@sealbox/rules';
import type { ItemView } from '../../model/items.ts';
import type { Found } from './memory.ts';
import { IndexOpenError, idAt, type NamesColumns } from './seal.ts';

/** A path longer than this is a cycle in bad data, not a tree (as memory.ts). */
const MAX_PATH = 64;

export class NamesIndex {
  private readonly lower: string;
  /** Where each entry's name starts in `lower`, and one past the last. */
  private readonly starts: Uint32Array;
  /** The same in the names as written, when lower-casing changed the text's length. */
  private readonly originalStarts: Uint32Array;

  constructor(
    readonly ownerId: string,
    private readonly columns: NamesColumns,
  ) {
    this.lower = columns.text.toLocaleLowerCase();
    this.starts = startsOf(this.lower, columns.parents.length);
    this.originalStarts =
      this.lower.length === columns.text.length ? this.starts : startsOf(columns.text, columns.parents.length);
  }

  get size(): number {
    return this.columns.parents.length;
  }

  find(query: string, max: number): Found & { partial: true } {
    const q = query.trim().toLocaleLowerCase();
    const results: ItemView[] = [];
    let total = 0;
    // A name holds no newline, so a query with one matches nothing.
    if (q === '' || q.includes('\n') || this.size === 0) return { results, total, folders: [], partial: true };
    const shown: number[] = [];
    for (let at = this.lower.indexOf(q); at !== -1; ) {
      const n = this.entryAt(at);
      total++;
      if (shown.length < max) shown.push(n);
      at = this.lower.indexOf(q, this.starts[n + 1]!);
    }
    const folders = new Map<number, ItemView>();
    for (const n of shown) {
      results.push(this.viewOf(n));
      let at = this.columns.parents[n]!;
      for (let depth = 0; at !== -1 && !folders.has(at) && depth < MAX_PATH; depth++) {
        folders.set(at, this.viewOf(at));
        at = this.columns.parents[at]!;
      }
    }
    return { results, total, folders: [...folders.values()], partial: true };
  }

  /** The entry whose name holds position `at` of the lower-cased text. */
  private entryAt(at: number): number {
    let low = 0;
    let high = this.size - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.starts[mid]! <= at) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private viewOf(n: number): ItemView {
    const name = this.columns.text.slice(this.originalStarts[n], this.originalStarts[n + 1]! - 1);
    const parent = this.columns.parents[n]!;
    const isDirectory = this.columns.directories[n] === 1;
    return {
      id: idAt(this.columns.ids, n),
      name,
      mimeType: null,
      extension: isDirectory ? '' : extensionOf(name),
      isDirectory,
      parentId: parent === -1 ? null : idAt(this.columns.ids, parent),
      size: 0,
      cipherSize: 0,
      createdAt: 0,
      modifiedAt: 0,
      ownerId: this.ownerId,
      uploaderId: null,
      editPermission: true,
      decrypted: true,
    };
  }
}

/** Each of `count` newline-separated names' start in `text`, then one past the end (+1, as if a newline followed). */
function startsOf(text: string, count: number): Uint32Array {
  const starts = new Uint32Array(count + 1);
  let n = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (n >= count) throw new IndexOpenError('The names record holds more names than it says');
    starts[n++] = at + 1;
  }
  if (count > 0 && n !== count) throw new IndexOpenError('The names record holds fewer names than it says');
  starts[count] = text.length + 1;
  return starts;
}
