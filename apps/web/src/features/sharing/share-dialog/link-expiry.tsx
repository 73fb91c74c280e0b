/**
 * A link's expiry as the owner picks it (docs/web-files.md "Expired links stay listed"): an amount
 * and a unit, for a new link, and for Change expiry or Renew of one that exists.
 */
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@sealbox/ui';
import { EXPIRY_MIN_AMOUNT, EXPIRY_UNITS, expirySeconds, type ExpiryUnit } from './share-logic.ts';

/** The amount and unit typed, and the seconds they come to (undefined while invalid). */
export function useExpiry() {
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<ExpiryUnit>('days');
  return { amount, setAmount, unit, setUnit, seconds: expirySeconds(Number(amount), unit) };
}

export type Expiry = ReturnType<typeof useExpiry>;

/** "Expires after" and "Unit", as two fields; `what` names the link for a screen reader. */
export function ExpiryFields({ expiry, what }: { expiry: Expiry; what?: string }) {
  const ids = useId();
  const named = (label: string) => (what ? `${label} (${what})` : undefined);
  return (
    <>
      <label className="field share-create__amount" htmlFor={`${ids}-amount`}>
        <span>Expires after</span>
        <input
          id={`${ids}-amount`}
          type="number"
          inputMode="numeric"
          min={EXPIRY_MIN_AMOUNT}
          step={1}
          value={expiry.amount}
          disabled={expiry.unit === 'never'}
          aria-invalid={expiry.unit !== 'never' && expiry.seconds === undefined}
          aria-label={named('Expires after')}
          onChange={(event) => expiry.setAmount(event.target.value)}
        />
      </label>
      <label className="field share-create__unit" htmlFor={`${ids}-unit`}>
        <span>Unit</span>
        <select
          id={`${ids}-unit`}
          value={expiry.unit}
          aria-label={named('Unit')}
          onChange={(event) => expiry.setUnit(event.target.value as ExpiryUnit)}
        >
          {EXPIRY_UNITS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** A new expiry for an existing link: Save (or Renew) sends it in seconds from now. */
export function ExpiryForm({
  label,
  submitText,
  busy,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitText: string;
  busy: boolean;
  onSubmit: (seconds: number) => Promise<void>;
  onCancel: () => void;
}) {
  const expiry = useExpiry();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (expiry.seconds !== undefined && !busy) void onSubmit(expiry.seconds);
  };
  return (
    <form className="share-create share-expiry" onSubmit={submit} aria-label={`New expiry for ${label}`}>
      <div className="share-create__row">
        <ExpiryFields expiry={expiry} what={label} />
      </div>
      <div className="share-create__submit">
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" type="submit" disabled={expiry.seconds === undefined || busy}>
          {submitText}
        </Button>
      </div>
    </form>
  );
}
