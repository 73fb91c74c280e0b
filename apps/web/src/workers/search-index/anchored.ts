/**
 * Which items of a tree that comes in pages can be opened yet (docs/web-files.md "The search
 * index of My Files"). GET /api/file/tree gives the own tree in creation order, so a folder moved
 * under a newer one comes after its children: an item is opened once its parent has opened (or
 * comes in the same batch, which opens parents first), and waits for it until then. What never
 * reaches the top level (under a trashed folder, or under a folder that does not open) waits to
 * the end and is left out, as a walk down from the top would leave it. Pure: no crypto, no I/O.
 */
import type { ServerItem } from '../../model/items.ts';

export class AnchoredPages {
  private readonly opened = new Set<string>();
  private readonly waiting = new Map<string, ServerItem[]>();
  private waitingCount = 0;

  /** How many items are still waiting for their parent. */
  get unplaced(): number {
    return this.waitingCount;
  }

  /**
   * The items that can be opened now: this page's that reach an opened folder (or the top
   * level) through the page itself, with everything that waited below them. The rest wait.
   */
  take(page: readonly ServerItem[]): ServerItem[] {
    const inPage = new Map(page.map((item) => [item.id, item]));
    const anchored = new Map<string, boolean>();
    const isAnchored = (item: ServerItem): boolean => {
      const known = anchored.get(item.id);
      if (known !== undefined) return known;
      // A cycle in bad data anchors nothing: it is marked first, then settled.
      anchored.set(item.id, false);
      const parent = item.parentId === null ? undefined : inPage.get(item.parentId);
      const result = item.parentId === null || this.opened.has(item.parentId) || (parent !== undefined && isAnchored(parent));
      anchored.set(item.id, result);
      return result;
    };
    const batch: ServerItem[] = [];
    for (const item of page) {
      if (isAnchored(item)) batch.push(item);
      else this.wait(item);
    }
    // Whatever waited under an item of the batch comes with it (parents first is openItems' job).
    for (let i = 0; i < batch.length; i++) {
      const below = this.waiting.get(batch[i]!.id);
      if (!below) continue;
      this.waiting.delete(batch[i]!.id);
      this.waitingCount -= below.length;
      batch.push(...below);
    }
    return batch;
  }

  /** These opened (decrypted): what comes later under them is placed at once. */
  settle(openedIds: Iterable<string>): void {
    for (const id of openedIds) this.opened.add(id);
  }

  private wait(item: ServerItem): void {
    const parentId = item.parentId!;
    const list = this.waiting.get(parentId);
    if (list) list.push(item);
    else this.waiting.set(parentId, [item]);
    this.waitingCount++;
  }
}
