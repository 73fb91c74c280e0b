import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

export type LabelledInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  label: ReactNode;
  value: string;
  /** The field's text as typed (an input's change event carries nothing else a form needs). */
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A text input named by the label that wraps it (app.css `.field`), so a click on the label focuses
 * it and no id has to be made up to tie the two together.
 */
export function LabelledInput({ label, onChange, ...input }: LabelledInputProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <input {...input} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

/** A password field; `purpose` tells the browser to fill the saved password or offer a new one. */
export function PasswordInput({
  purpose,
  ...input
}: Omit<LabelledInputProps, 'type' | 'autoComplete'> & { purpose: 'current' | 'new' }) {
  return <LabelledInput {...input} type="password" autoComplete={`${purpose}-password`} />;
}

/** The account name as sign-in, recovery and the like ask it: no capitals or spelling help. */
export function UsernameInput(input: Omit<LabelledInputProps, 'label' | 'name' | 'autoComplete'>) {
  return (
    <LabelledInput label="Username" name="username" autoComplete="username" autoCapitalize="none" spellCheck={false} {...input} />
  );
}
