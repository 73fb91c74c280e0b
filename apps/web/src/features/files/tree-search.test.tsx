/**
 * A search typed while the stored search index is being read back (docs/web-files.md "The search
 * index of My Files") waits for it, loading, instead of fetching the whole tree the old way; once
 * the index is open the worker's matches answer and the tree is never fetched.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { itemView } from '../../test/item-view.ts';
import type { Sort } from './sorting.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const worker = vi.hoisted(() => ({
  opened: (_state: unknown) => {},
  openedWhole: (_state: unknown) => {},
  failWhole: (_error: Error) => {},
  /** Whether the worker's answers are whole yet (else from the names record: partial). */
  whole: true,
  calls: [] as string[],
}));
vi.mock(
  '../../crypto/client.ts',
  overriding({
    cryptoWorker: {
      call: (method: string, ...args: unknown[]) => {
        worker.calls.push(method);
        if (method === 'searchIndexOpen')
          return new Promise((resolve) => {
            worker.opened = resolve;
          });
        if (method === 'searchIndexOpenWhole')
          return new Promise((resolve, reject) => {
            worker.openedWhole = (state) => {
              worker.whole = true;
              resolve(state);
            };
            worker.failWhole = reject;
          });
        if (method === 'searchIndexFind')
          return Promise.resolve({
            results: [itemView({ name: `found ${String(args[0])}`, size: worker.whole ? 1234 : 0 })],
            folders: [],
            total: 1,
            ...(worker.whole ? {} : { partial: true }),
          });
        return new Promise(() => {});
      },
    },
  }),
);
vi.mock(
  '../../lib/api.ts',
  overriding({ api: { api: { file: { 'tree-version': { get: async () => ({ data: { treeVersion: 7 } }) } } } } }),
);

const { useTreeSearch } = await import('./browser-state.ts');
const { resetSearchIndex, startSearchIndex } = await import('../search/index.ts');

afterEach(() => {
  cleanup();
  resetSearchIndex();
  worker.calls = [];
  worker.whole = true;
});

/** One query client per test, the same across renders. */
function renderSearch(treeFetch: () => Promise<unknown>, sort?: Sort) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useTreeSearch(sort, { queryKey: ['tree'], queryFn: treeFetch }, 'own'), { wrapper });
}

describe('a search while the index opens', () => {
  it('waits for the index, loading, and never fetches the tree', async () => {
    startSearchIndex();
    const treeFetch = vi.fn(async () => ({ folder: null, items: [], ancestors: [], users: {} }));
    const { result } = renderSearch(treeFetch);
    act(() => result.current.setQuery('budget'));
    expect(result.current.tree.isLoading).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(treeFetch).not.toHaveBeenCalled();

    expect(worker.calls).toContain('searchIndexOpen');
    await act(async () => worker.opened({ state: 'ready', treeVersion: 7, names: 1, shared: false }));
    await waitFor(() => expect(result.current.results.map((item) => item.name)).toEqual(['found budget']));
    expect(result.current.tree.isLoading).toBe(false);
    expect(treeFetch).not.toHaveBeenCalled();
  });

  it('answers from the names record first (partial: not opened), whole once the rest is open', async () => {
    worker.whole = false;
    startSearchIndex();
    const treeFetch = vi.fn(async () => ({ folder: null, items: [], ancestors: [], users: {} }));
    const { result } = renderSearch(treeFetch);
    act(() => result.current.setQuery('budget'));
    await waitFor(() => expect(worker.calls).toContain('searchIndexOpen'));
    await act(async () => worker.opened({ state: 'ready', treeVersion: 7, names: 1, shared: false, early: true }));
    await waitFor(() => expect(result.current.results.map((item) => item.size)).toEqual([0]));
    expect(result.current.partial).toBe(true);
    expect(worker.calls).toContain('searchIndexOpenWhole');
    await act(async () => worker.openedWhole({ state: 'ready', treeVersion: 7, names: 1, shared: false }));
    await waitFor(() => expect(result.current.results.map((item) => item.size)).toEqual([1234]));
    expect(result.current.partial).toBe(false);
    expect(treeFetch).not.toHaveBeenCalled();
  });

  it('under a sort by what the names record lacks, waits for the whole answer', async () => {
    worker.whole = false;
    startSearchIndex();
    const treeFetch = vi.fn(async () => ({ folder: null, items: [], ancestors: [], users: {} }));
    const { result } = renderSearch(treeFetch, { sortBy: 'size', sortOrder: 'desc' });
    act(() => result.current.setQuery('budget'));
    await waitFor(() => expect(worker.calls).toContain('searchIndexOpen'));
    await act(async () => worker.opened({ state: 'ready', treeVersion: 7, names: 1, shared: false, early: true }));
    await waitFor(() => expect(worker.calls).toContain('searchIndexFind'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.results).toEqual([]);
    expect(result.current.tree.isLoading).toBe(true);
    await act(async () => worker.openedWhole({ state: 'ready', treeVersion: 7, names: 1, shared: false }));
    await waitFor(() => expect(result.current.results.map((item) => item.size)).toEqual([1234]));
    expect(result.current.tree.isLoading).toBe(false);
  });

  it('when the rest fails to open after the names did, builds the index instead of staying ready on nothing', async () => {
    worker.whole = false;
    startSearchIndex();
    const treeFetch = vi.fn(async () => ({ folder: null, items: [], ancestors: [], users: {} }));
    const { result } = renderSearch(treeFetch);
    await waitFor(() => expect(worker.calls).toContain('searchIndexOpen'));
    await act(async () => worker.opened({ state: 'ready', treeVersion: 7, names: 1, shared: false, early: true }));
    await waitFor(() => expect(worker.calls).toContain('searchIndexOpenWhole'));
    await act(async () => worker.failWhole(new Error('the worker went away')));
    await waitFor(() => expect(worker.calls).toContain('searchIndexBuild'));
    // Building: a search goes the old way meanwhile, and its results open (they are not partial).
    act(() => result.current.setQuery('budget'));
    await waitFor(() => expect(treeFetch).toHaveBeenCalled());
    expect(result.current.partial).toBe(false);
  });

  it('goes the old way when the index is unavailable', async () => {
    startSearchIndex();
    const treeFetch = vi.fn(async () => ({ folder: null, items: [itemView({ name: 'budget.txt' })], ancestors: [], users: {} }));
    const { result } = renderSearch(treeFetch);
    await waitFor(() => expect(worker.calls).toContain('searchIndexOpen'));
    await act(async () => worker.opened({ state: 'unavailable' }));
    act(() => result.current.setQuery('budget'));
    await waitFor(() => expect(result.current.results.map((item) => item.name)).toEqual(['budget.txt']));
    expect(treeFetch).toHaveBeenCalledTimes(1);
  });
});
