import type { Ref } from 'react';
import { Button } from '@sealbox/ui';
import { LabelledInput } from '../../lib/LabelledInput.tsx';
import './auth.css';

/** A recovery code as typed: `xxxxx-xxxxx`, with room for a space or two. */
const RECOVERY_CODE_MAX_TYPED = 16;

/**
 * The second factor's field (login's second step, turning TOTP on or off): the 6-digit
 * authenticator code, keeping digits only, or with `recovery` a recovery code, kept as typed
 * (docs/web-accounts.md "TOTP recovery codes").
 */
export function TotpCodeInput({
  label,
  value,
  onChange,
  ref,
  recovery = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
  recovery?: boolean;
}) {
  if (recovery) {
    return (
      <LabelledInput
        label={label}
        ref={ref}
        name="recoveryCode"
        className="field__code field__code--recovery"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={RECOVERY_CODE_MAX_TYPED}
        placeholder="xxxxx-xxxxx"
        value={value}
        onChange={(typed) => onChange(typed.slice(0, RECOVERY_CODE_MAX_TYPED))}
      />
    );
  }
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

export const CODE_KIND_TEXT = {
  useRecovery: 'Use a recovery code',
  useApp: 'Use the authenticator app',
} as const;

/** Switches a second-factor field between the app's code and a recovery code (a lost device). */
export function CodeKindToggle({
  recovery,
  onChange,
  disabled,
}: {
  recovery: boolean;
  onChange: (recovery: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <Button variant="ghost" size="sm" className="code-kind-toggle" onClick={() => onChange(!recovery)} disabled={disabled}>
      {recovery ? CODE_KIND_TEXT.useApp : CODE_KIND_TEXT.useRecovery}
    </Button>
  );
}
