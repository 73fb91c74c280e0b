import type { ItemRecord, ItemsReader, ItemsWriter } from '../../../ports/files/items.ts';

/**
 * A transaction's reads of an item's ancestors, kept by parent: a batch of thousands of items
 * from one folder asks for the same chain once per item, and its recursive query was the
 * largest part of a batch move (bench/batch). Only inside a transaction, and forgotten whenever
 * it may have changed: a lock taken (what was read before it is read again under it, as the
 * domain expects) and any write to items, but the update of an item on no kept chain (a moved
 * item is not an ancestor of its siblings).
 */
export function rememberAncestors<W extends ItemsWriter>(
  reader: Pick<ItemsReader, 'ancestors'>,
  writer: W,
): Pick<ItemsReader, 'ancestors'> & W {
  const chains = new Map<string, ItemRecord[]>();
  const onChains = new Set<string>();
  const forget = () => {
    chains.clear();
    onChains.clear();
  };
  const forgetting = Object.fromEntries(
    Object.entries(writer).map(([name, write]) => [
      name,
      (...args: unknown[]) => {
        if (name !== 'updateItem' || onChains.has(args[0] as string)) forget();
        return (write as (...args: unknown[]) => Promise<unknown>)(...args);
      },
    ]),
  ) as unknown as W;
  return {
    ...forgetting,
    async ancestors(item) {
      if (item.parentId === null) return [];
      let chain = chains.get(item.parentId);
      if (!chain) {
        chain = await reader.ancestors(item);
        chains.set(item.parentId, chain);
        for (const ancestor of chain) onChains.add(ancestor.id);
      }
      return [...chain];
    },
  };
}
