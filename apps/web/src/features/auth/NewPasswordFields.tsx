import { LabelledInput } from '../../lib/LabelledInput.tsx';

/** 'New password' and 'Confirm new password': a password change and a recovery ask the same. */
export function NewPasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
}: {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
}) {
  return (
    <>
      <LabelledInput
        label="New password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
      />
      <LabelledInput
        label="Confirm new password"
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmation}
      />
    </>
  );
}
