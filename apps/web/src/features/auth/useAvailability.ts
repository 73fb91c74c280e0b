import { useCallback, useEffect, useRef, useState } from 'react';
import { checkAvailable } from './account-api.ts';
import { AVAILABILITY_DEBOUNCE_MS } from './register-validation.ts';

/**
 * waiting: typed, debounce running; checking: request in flight; unknown: the check failed
 * (the server stays authoritative at submit: 409).
 */
export type Availability = 'idle' | 'waiting' | 'checking' | 'free' | 'taken' | 'unknown';

/**
 * GET /api/check for `value`, AVAILABILITY_DEBOUNCE_MS after it last changed, only while
 * `enabled` (the value passes the local rules). Answers are cached per value and late answers
 * for an older value are ignored.
 */
export function useAvailability(field: 'username' | 'email', value: string, enabled: boolean) {
  const [state, setState] = useState<Availability>('idle');
  const known = useRef(new Map<string, 'free' | 'taken'>());
  const current = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  current.current = value;

  const run = useCallback(
    async (checked: string): Promise<Availability> => {
      const cached = known.current.get(checked.toLowerCase());
      if (cached) {
        if (current.current === checked) setState(cached);
        return cached;
      }
      if (current.current === checked) setState('checking');
      let result: Availability;
      try {
        const answer = await checkAvailable(field, checked);
        result = answer.ok ? (answer.data.ok ? 'free' : 'taken') : 'unknown';
      } catch {
        result = 'unknown';
      }
      if (result === 'free' || result === 'taken') known.current.set(checked.toLowerCase(), result);
      if (current.current === checked) setState(result);
      return result;
    },
    [field],
  );

  useEffect(() => {
    clearTimeout(timer.current);
    if (!enabled || value === '') {
      setState('idle');
      return;
    }
    const cached = known.current.get(value.toLowerCase());
    if (cached) {
      setState(cached);
      return;
    }
    setState('waiting');
    timer.current = setTimeout(() => void run(value), AVAILABILITY_DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
  }, [value, enabled, run]);

  /** At submit: the answer for the current value now, without waiting for the debounce. */
  const checkNow = useCallback((): Promise<Availability> => {
    clearTimeout(timer.current);
    if (!enabled || current.current === '') return Promise.resolve('idle');
    return run(current.current);
  }, [enabled, run]);

  /** A 409 at submit: remember the value as taken. */
  const markTaken = useCallback((taken: string) => {
    known.current.set(taken.toLowerCase(), 'taken');
    if (current.current === taken) setState('taken');
  }, []);

  /** Forget cached answers (e.g. after a 409 none of them explained). */
  const forget = useCallback(() => known.current.clear(), []);

  return { state, checkNow, markTaken, forget };
}
