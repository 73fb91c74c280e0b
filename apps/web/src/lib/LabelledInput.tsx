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
