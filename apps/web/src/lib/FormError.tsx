/** A form's error line, read out as it appears (app.css `.form__error`); nothing without one. */
export function FormError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p className="form__error" role="alert">
      {error}
    </p>
  );
}
