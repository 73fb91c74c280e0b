import { useTheme, type ThemePreference } from '@sealbox/ui';

const LABELS: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

export function ThemeSwitcher() {
  const { preference, setPreference } = useTheme();
  return (
    <label className="theme-switcher">
      <span className="sb-visually-hidden">Theme</span>
      <select value={preference} onChange={(e) => setPreference(e.target.value as ThemePreference)}>
        {(Object.keys(LABELS) as ThemePreference[]).map((theme) => (
          <option key={theme} value={theme}>
            {LABELS[theme]}
          </option>
        ))}
      </select>
    </label>
  );
}
