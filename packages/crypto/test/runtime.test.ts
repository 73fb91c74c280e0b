import { test } from 'bun:test';
import { runtimeChecks } from './runtime-checks.ts';

for (const check of runtimeChecks) test(`runtime (Bun): ${check.name}`, check.run, 60_000);
