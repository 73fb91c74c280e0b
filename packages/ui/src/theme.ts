import { useCallback, useEffect, useSyncExternalStore } from 'react';

export type ThemePreference = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'sealbox.theme';
const THEMES: readonly ThemePreference[] = ['light', 'dark', 'system'];
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** docs/product.md "States": anything unknown in storage falls back to 'system'. */
export function parseThemePreference(value: unknown): ThemePreference {
  return THEMES.includes(value as ThemePreference) ? (value as ThemePreference) : 'system';
}

export function readThemePreference(): ThemePreference {
  try {
    return parseThemePreference(globalThis.localStorage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system'; // storage can throw (disabled cookies, sandboxed frames)
  }
}

/** Sets data-theme on <html>; tokens.css resolves 'system' itself (color-scheme: light dark). */
export function applyThemePreference(preference: ThemePreference, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = preference;
}

const prefListeners = new Set<() => void>();
let currentPreference: ThemePreference | undefined;

function getPreference(): ThemePreference {
  currentPreference ??= readThemePreference();
  return currentPreference;
}

export function setThemePreference(preference: ThemePreference): void {
  currentPreference = parseThemePreference(preference);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, currentPreference);
  } catch {
    // Not persisted, still applied for this page.
  }
  applyThemePreference(currentPreference);
  for (const listener of prefListeners) listener();
}

function subscribePreference(listener: () => void) {
  prefListeners.add(listener);
  // Another tab changed the theme: follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    currentPreference = parseThemePreference(event.newValue);
    applyThemePreference(currentPreference);
    listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    prefListeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

function systemPrefersDark(): boolean {
  return globalThis.matchMedia?.(DARK_QUERY).matches ?? false;
}

function subscribeSystem(listener: () => void) {
  const query = globalThis.matchMedia?.(DARK_QUERY);
  query?.addEventListener('change', listener);
  return () => query?.removeEventListener('change', listener);
}

/**
 * The theme preference plus the theme actually shown. `resolved` follows the
 * OS live while the preference is 'system' (for code that needs to know, e.g.
 * canvas drawing); the CSS follows it on its own.
 */
export function useTheme(): {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
} {
  const preference = useSyncExternalStore(subscribePreference, getPreference, () => 'system' as const);
  const prefersDark = useSyncExternalStore(subscribeSystem, systemPrefersDark, () => false);
  useEffect(() => applyThemePreference(preference), [preference]);
  const setPreference = useCallback((next: ThemePreference) => setThemePreference(next), []);
  const resolved: ResolvedTheme = preference === 'system' ? (prefersDark ? 'dark' : 'light') : preference;
  return { preference, resolved, setPreference };
}
