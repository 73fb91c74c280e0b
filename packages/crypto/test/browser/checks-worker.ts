/** Runs every vector and runtime check inside a browser Web Worker and posts the outcomes. */
import { vectorChecks } from '../vector-checks.ts';
import { runtimeChecks } from '../runtime-checks.ts';

export interface CheckOutcome {
  name: string;
  ok: boolean;
  error?: string;
  ms: number;
}

self.onmessage = async () => {
  const outcomes: CheckOutcome[] = [];
  for (const check of [...vectorChecks, ...runtimeChecks]) {
    const start = performance.now();
    try {
      await check.run();
      outcomes.push({ name: check.name, ok: true, ms: performance.now() - start });
    } catch (error) {
      outcomes.push({ name: check.name, ok: false, error: String(error), ms: performance.now() - start });
    }
  }
  self.postMessage({ outcomes, isWorker: typeof (self as { document?: unknown }).document === 'undefined' });
};
