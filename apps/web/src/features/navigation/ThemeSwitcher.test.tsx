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

  it('applies and persists the chosen theme', () => {
    render(<ThemeSwitcher />);
    fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'dark' } });
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });
});
