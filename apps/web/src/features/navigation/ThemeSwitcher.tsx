import type { ReactNode } from 'react';
import { Menu, MenuChoices, StrokeIcon, useTheme, type ThemePreference } from '@sealbox/ui';

const LABELS: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

const svg = (path: ReactNode) => <StrokeIcon size={16}>{path}</StrokeIcon>;

const ICONS: Record<ThemePreference, ReactNode> = {
  light: svg(
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>,
  ),
  dark: svg(<path d="M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z" />),
  system: svg(
    <>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </>,
  ),
};

const CHOICES = (Object.keys(LABELS) as ThemePreference[]).map((theme) => ({
  value: theme,
  label: LABELS[theme],
  icon: ICONS[theme],
}));

/**
 * Light, dark or system (docs/product.md "Overview" and "States"), as a menu styled like the app's
 * others (radix DropdownMenu).
 */
export function ThemeSwitcher() {
  const { preference, setPreference } = useTheme();
  return (
    <Menu
      align="end"
      label="Theme"
      trigger={
        <button type="button" className="select-button theme-switcher" aria-label={`Theme: ${LABELS[preference]}`}>
          {ICONS[preference]}
          <span>{LABELS[preference]}</span>
          {svg(<path d="M6 9l6 6 6-6" />)}
        </button>
      }
    >
      <MenuChoices value={preference} onChange={setPreference} choices={CHOICES} />
    </Menu>
  );
}
