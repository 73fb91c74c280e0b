/**
 * A test-only fault point, inert unless SEALBOX_TEST_PAUSE is set: the fault tests
 * (apps/server/test/faults) kill the server with SIGKILL at a known step of a write. The value
 * is `before-commit:<event kind>[:<n>]` or `after-commit:<event kind>[:<n>]`: the n-th
 * transaction (1 by default) that publishes an event of that kind logs "test pause" and then
 * hangs for good, either inside the transaction once its writes are done, or after the commit
 * and before anything that follows it (events, blob deletes, the answer).
 */
export interface TestPause {
  when: 'before-commit' | 'after-commit';
  kind: string;
  nth: number;
}

export function parseTestPause(raw: string | undefined): TestPause | undefined {
  if (raw === undefined) return undefined;
  const match = /^(before-commit|after-commit):([a-z.]+)(?::(\d+))?$/.exec(raw);
  if (!match) throw new Error(`SEALBOX_TEST_PAUSE: expected before-commit|after-commit:<event kind>[:<n>], got "${raw}"`);
  return { when: match[1] as TestPause['when'], kind: match[2]!, nth: match[3] ? Number(match[3]) : 1 };
}

/** Counts the transactions that publish the chosen kind; `at` hangs the one that should pause. */
export function testPauser(
  pause: TestPause | undefined,
  log: (message: string, fields: { when: string; kind: string; nth: number }) => void,
) {
  let seen = 0;
  return {
    /** Whether the transaction that published these kinds is the one to pause. */
    chosen(kinds: readonly string[]): boolean {
      if (!pause || !kinds.includes(pause.kind)) return false;
      seen += 1;
      return seen === pause.nth;
    },
    async at(when: TestPause['when']): Promise<void> {
      if (!pause || pause.when !== when) return;
      log('test pause', { when, kind: pause.kind, nth: pause.nth });
      await new Promise<never>(() => {});
    },
  };
}
