import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast, useTheme, type ThemePreference } from '@sealbox/ui';
import {
  PROFILE_QUERY_KEY,
  putPreferences,
  SORT_BY_VALUES,
  type Preferences,
  type Profile,
  type SortBy,
  type SortOrder,
} from '../auth/index.ts';
import { SORT_LABELS } from '../items/index.ts';
import { ProfileSection } from './ProfileSection.tsx';
import './profile.css';

const THEME_LABELS: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

function Segmented<T extends string>({
  name,
  legend,
  value,
  options,
  onChange,
  disabled,
}: {
  name: string;
  legend: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="segmented" disabled={disabled}>
      <legend>{legend}</legend>
      <div className="segmented__options">
        {options.map((option) => (
          <label key={option.value} className="segmented__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** One preferences request: only the fields it changes. */
type Change = NonNullable<Preferences>;

/** The fields of `source` named by `change`. */
function pick(source: Profile, change: Preferences): Partial<Profile> {
  return Object.fromEntries(Object.keys(change ?? {}).map((key) => [key, source[key as keyof Profile]]));
}

export function PreferencesSection({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const { preference, setPreference } = useTheme();
  const save = useMutation({
    mutationFn: async ({ change }: { change: Preferences; before: Profile | null | undefined }) => {
      const answer = await putPreferences(change);
      if (!answer.ok) throw Object.assign(new Error(answer.message), { status: answer.status });
      return answer.data;
    },
    onSuccess: (updated, { change }) => {
      // Only the field this request changed: a later change may already be on screen.
      queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) =>
        old ? { ...old, ...pick(updated, change) } : updated,
      );
      toast('Preferences saved.', 'success');
    },
    onError: (error, { change, before }) => {
      queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) =>
        old && before ? { ...old, ...pick(before, change) } : old,
      );
      const status = (error as { status?: number }).status;
      if (status !== 429 && status !== 401) toast('Could not save your preferences. Please try again.', 'error');
    },
  });
  // React state, not only the query cache: the cache tells its observers a tick later, and a
  // controlled input would snap back meanwhile. An override goes once its own request settles
  // (unless a newer choice replaced it). Each change sends only its own field.
  const [chosen, setChosen] = useState<Change>({});
  const shown = { ...profile, ...chosen };
  const choose = (change: Change) => {
    setChosen((current) => ({ ...current, ...change }));
    const before = queryClient.getQueryData<Profile | null>(PROFILE_QUERY_KEY);
    queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) => (old ? { ...old, ...change } : old));
    save.mutate(
      { change, before },
      {
        onSettled: () =>
          setChosen((current) =>
            Object.fromEntries(Object.entries(current).filter(([key, value]) => change[key as keyof typeof change] !== value)),
          ),
      },
    );
  };

  return (
    <ProfileSection id="preferences" title="Preferences">
      <div className="preferences">
        <Segmented
          name="view"
          legend="File view"
          value={shown.gridView ? 'grid' : 'list'}
          options={[
            { value: 'list', label: 'List' },
            { value: 'grid', label: 'Grid' },
          ]}
          onChange={(view) => choose({ gridView: view === 'grid' })}
        />
        <label className="field">
          <span>Sort by</span>
          <select name="sortBy" value={shown.sortBy} onChange={(e) => choose({ sortBy: e.target.value as SortBy })}>
            {SORT_BY_VALUES.map((value) => (
              <option key={value} value={value}>
                {SORT_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <Segmented<SortOrder>
          name="sortOrder"
          legend="Order"
          value={shown.sortOrder}
          options={[
            { value: 'asc', label: 'Ascending' },
            { value: 'desc', label: 'Descending' },
          ]}
          onChange={(sortOrder) => choose({ sortOrder })}
        />
        <Segmented<ThemePreference>
          name="theme"
          legend="Theme"
          value={preference}
          options={(Object.keys(THEME_LABELS) as ThemePreference[]).map((value) => ({ value, label: THEME_LABELS[value] }))}
          onChange={setPreference}
        />
      </div>
      <p className="muted field__hint">The theme is kept in this browser; System follows your device’s setting.</p>
    </ProfileSection>
  );
}
