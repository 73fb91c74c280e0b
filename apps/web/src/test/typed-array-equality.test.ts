import { describe, expect, it } from 'vitest';

describe('toEqual on typed arrays (src/test/typed-array-equality.ts)', () => {
  it('is true for the same elements, false for one element, one length or one kind apart', () => {
    const big = new Uint8Array(1 << 16).map((_, i) => i * 31);
    expect(big).toEqual(big.slice());
    const flipped = big.slice();
    flipped[big.length - 1]! ^= 1;
    expect(big).not.toEqual(flipped);
    expect(big).not.toEqual(big.slice(1));
    expect(new Uint8Array([1, 2])).not.toEqual(new Uint16Array([1, 2]));
    expect(new Uint8Array([1, 2])).not.toEqual([1, 2]);
  });

  it('compares elements as vitest does: NaN equals NaN, 0 and -0 differ', () => {
    expect(new Float64Array([Number.NaN])).toEqual(new Float64Array([Number.NaN]));
    expect(new Float64Array([0])).not.toEqual(new Float64Array([-0]));
    expect(new BigInt64Array([1n])).toEqual(new BigInt64Array([1n]));
    expect(new BigInt64Array([1n])).not.toEqual(new BigInt64Array([2n]));
  });

  it('compares megabytes about as fast as a loop over them (vitest alone takes seconds)', () => {
    const a = new Uint8Array(4 << 20).map((_, i) => i);
    const b = a.slice();
    const loop = () => {
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) throw new Error('differs');
    };
    const fastest = (run: () => void) =>
      Math.min(
        ...[1, 2, 3, 4, 5].map(() => {
          const started = performance.now();
          run();
          return performance.now() - started;
        }),
      );
    const loopMs = fastest(loop);
    const equalMs = fastest(() => expect(a).toEqual(b));
    // Vitest's own comparison takes seconds here; the slack only absorbs a busy machine.
    expect(equalMs).toBeLessThan(20 * loopMs + 400);
  });
});
