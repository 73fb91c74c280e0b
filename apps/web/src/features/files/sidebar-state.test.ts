import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';

beforeEach(() => {
  localStorage.clear();
  vi.resetModules();
});

describe('sidebar collapsed state', () => {
  it('is kept across a reload (a fresh module and store read the stored choice)', async () => {
    const first = await import('./Sidebar.tsx');
    const store = createStore();
    expect(store.get(first.sidebarCollapsedAtom)).toBe(false);
    store.set(first.sidebarCollapsedAtom, (c) => !c);
    expect(store.get(first.sidebarCollapsedAtom)).toBe(true);

    // "Reload": the module is evaluated again with a new store.
    vi.resetModules();
    const reloaded = await import('./Sidebar.tsx');
    expect(createStore().get(reloaded.sidebarCollapsedAtom)).toBe(true);

    // Expanded again: that choice is kept too.
    createStore().set(reloaded.sidebarCollapsedAtom, false);
    vi.resetModules();
    const again = await import('./Sidebar.tsx');
    expect(createStore().get(again.sidebarCollapsedAtom)).toBe(false);
  });
});
