import type { Ref } from 'react';
import { LabelledInput } from '../../lib/LabelledInput.tsx';
import './auth.css';

/** The 6-digit authenticator code field (login's second step, turning TOTP on or off): keeps digits only. */
export function TotpCodeInput({
  label,
  value,
  onChange,
  ref,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <LabelledInput
      label={label}
      ref={ref}
      name="totpCode"
      className="field__code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      placeholder="123456"
      value={value}
      onChange={(typed) => onChange(typed.replace(/\D/g, '').slice(0, 6))}
    />
  );
}
