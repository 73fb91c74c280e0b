import type { FilesReader, ItemRecord } from '../../ports/files.ts';

/**
 * A marked folder's tree, deepest first (children before their folder, so each step's items
 * delete front to back), taken in steps. The path from the marked folder down to where the last
 * step stopped is kept between steps: a deep tree is walked down once, not once per step. Reads
 * happen outside transactions; under a mark nothing is added, so what was read stays true until
 * it is deleted.
 */
export class DeepestFirst {
  /** Folders from the marked one down; `taken`: children of it taken in this step. */
  private readonly path: Array<{ folder: ItemRecord; taken: number }>;
  private readonly onPath: Set<string>;

  constructor(
    private readonly reader: FilesReader,
    root: ItemRecord,
  ) {
    this.path = [{ folder: root, taken: 0 }];
    this.onPath = new Set([root.id]);
  }

  /** The marked folder itself has been taken. */
  get done(): boolean {
    return this.path.length === 0;
  }

  /**
   * Up to `max` items after at most `max` reads (a step may only walk down and take nothing).
   * They must be deleted before the next step, which reads the tree as they left it.
   */
  async next(max: number): Promise<ItemRecord[]> {
    const items: ItemRecord[] = [];
    const taken = new Set<string>();
    const take = (item: ItemRecord) => {
      items.push(item);
      taken.add(item.id);
    };
    for (const frame of this.path) frame.taken = 0;
    for (let reads = 0; reads < max && items.length < max && !this.done; reads++) {
      const frame = this.path.at(-1)!;
      // Children taken in this step are still there: ask for enough to see the rest past them.
      const limit = max - items.length + frame.taken;
      const children = await this.reader.someChildren(frame.folder.id, limit);
      const fresh = children.filter((child) => !taken.has(child.id));
      for (const file of fresh.filter((child) => !child.isDirectory).slice(0, max - items.length)) {
        take(file);
        frame.taken++;
      }
      if (items.length >= max) break;
      // Empty subfolders are taken like files, found with one read for all of them: a folder of
      // thousands of empty folders costs a few reads, not one each.
      const subfolders = fresh.filter((child) => child.isDirectory).slice(0, max - items.length);
      if (subfolders.length > 1) {
        reads++;
        const full = await this.reader.foldersWithChildren(subfolders.map((folder) => folder.id));
        const empty = subfolders.filter((folder) => !full.has(folder.id));
        for (const folder of empty) {
          take(folder);
          frame.taken++;
        }
        if (items.length >= max) break;
        if (empty.length > 0) continue;
      }
      const subfolder = fresh.find((child) => child.isDirectory && !taken.has(child.id));
      if (subfolder) {
        // No move can make a cycle, but nothing else rules one out in the data: never loop on it.
        if (this.onPath.has(subfolder.id)) throw new Error(`Folder ${subfolder.id} is inside itself`);
        this.path.push({ folder: subfolder, taken: 0 });
        this.onPath.add(subfolder.id);
      } else if (children.length < limit) {
        // Every child was seen, and all are taken: the folder follows them.
        take(frame.folder);
        this.path.pop();
        this.onPath.delete(frame.folder.id);
        if (!this.done) this.path.at(-1)!.taken++;
      }
    }
    return items;
  }
}
