import type { CSSProperties } from 'react';
import { cx } from './cx.ts';

export interface UsageBarProps {
  /** Percent of the whole in use, 0-100. */
  used: number;
  /** Percent held aside beside it (drawn hatched after `used`), 0-100; the two together stop at 100. */
  reserved?: number;
  /** The meter's accessible name, e.g. "Storage used". */
  label: string;
  /** What a screen reader says for the value, e.g. "37% used, 10% reserved". */
  valueText: string;
  className?: string | undefined;
}

/**
 * A bar of what is used and what is reserved beside it. Neither <meter> nor <progress> holds two
 * values or takes another colour by level, so this is a role="meter" of two parts whose widths are
 * custom properties (set through CSSOM, so CSP-safe); `--sb-usage-color` and `--sb-usage-height`
 * restyle it.
 */
export function UsageBar({ used, reserved = 0, label, valueText, className }: UsageBarProps) {
  const clamp = (n: number) => (Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0);
  const usedPart = clamp(used);
  const reservedPart = Math.min(clamp(reserved), 100 - usedPart);
  const style = { '--sb-usage-used': `${usedPart}%`, '--sb-usage-reserved': `${reservedPart}%` } as CSSProperties;
  return (
    // biome-ignore lint/a11y/useSemanticElements: <meter> holds one value and cannot take the level colours
    <div
      className={cx('sb-usage', className)}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.trunc(usedPart)}
      aria-valuetext={valueText}
      style={style}
    >
      <span className="sb-usage__used" />
      <span className="sb-usage__reserved" />
    </div>
  );
}
