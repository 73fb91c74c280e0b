/** Sizes as people read them: 1024-based, one decimal below 10 (docs/cli.md "ls"). */
export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(bytes)} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
