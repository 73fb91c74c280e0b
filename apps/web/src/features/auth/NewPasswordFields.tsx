import { PasswordInput } from '../../lib/LabelledInput.tsx';

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
      <PasswordInput label="New password" name="new-password" purpose="new" value={password} onChange={onPassword} />
      <PasswordInput
        label="Confirm new password"
        name="confirm-password"
        purpose="new"
        value={confirmation}
        onChange={onConfirmation}
      />
    </>
  );
}
