import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { THEME_STORAGE_KEY, parseThemePreference } from '@sealbox/ui';
import { ThemeSwitcher } from './ThemeSwitcher.tsx';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('theme preference', () => {
  it('falls back to system for anything unknown', () => {
    expect(parseThemePreference('dark')).toBe('dark');
    expect(parseThemePreference('purple')).toBe('system');
    expect(parseThemePreference(null)).toBe('system');
  });

  it('applies and persists the theme chosen in its menu', async () => {
    render(<ThemeSwitcher />);
    // A menu (radix) now rather than a <select>: open it, pick Dark.
    fireEvent.keyDown(screen.getByRole('button', { name: 'Theme: System' }), { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitemradio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeTruthy();
  });
});
