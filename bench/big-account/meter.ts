/**
 * Whether the storage meter shows the account's use: its sizes ("26.1 MiB of 10.0 GiB") read back
 * to bytes must be within the rounding of the figure shown, and its percent ("0% used") must be
 * used over total, cut (docs/product.md "Limits"). Read independently of the app's own formatter.
 */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** "26.1 MiB" → the bytes it stands for and half its last digit's step (the rounding it allows). */
export function readSize(text: string): { bytes: number; slack: number } | undefined {
  const match = /^([\d.]+) (B|KiB|MiB|GiB|TiB)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = 1024 ** UNITS.indexOf(match[2]!);
  const decimals = match[1]!.split('.')[1]?.length ?? 0;
  return { bytes: Number(match[1]) * unit, slack: (0.5 * unit) / 10 ** decimals };
}

/** What is wrong with the meter, or undefined when it shows `usedBytes`. */
export function meterProblem(sizes: string, percent: string, usedBytes: number): string | undefined {
  const [usedText, totalText] = sizes.split(' of ');
  const used = readSize(usedText ?? '');
  const total = readSize(totalText ?? '');
  if (!used || !total) return `storage meter reads "${sizes}"`;
  if (Math.abs(used.bytes - usedBytes) > used.slack)
    return `storage meter says ${usedText} used, the account holds ${usedBytes} bytes`;
  const expected = `${Math.trunc((usedBytes / total.bytes) * 100)}% used`;
  if (percent.trim() !== expected) return `storage meter says "${percent}", expected "${expected}"`;
  return undefined;
}
