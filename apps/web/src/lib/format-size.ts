/**
 * The one way sizes, speeds and times left are written (docs/product.md "Limits": binary units),
 * shared by the file rows, the Info dialog, the storage meter, the profile and the transfers panel.
 */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

/** 1536 → "1.5 KiB"; whole bytes below 1 KiB; one decimal above (none from 100 up). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  const digits = value >= 100 ? 0 : 1;
  // Never round up into "1024.0 KiB": show the next unit instead.
  const text = value.toFixed(digits);
  if (Number(text) >= 1024 && unit < UNITS.length - 1) return `1.0 ${UNITS[unit + 1]}`;
  return `${text} ${UNITS[unit]}`;
}

/** 1536 → "1.5 KiB/s". */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Time left, rounded the way people read it: "5 s", "2 min", "1 h 5 min"; undefined when unknown. */
export function formatTimeLeft(seconds: number | undefined): string | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
