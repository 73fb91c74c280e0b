import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    // Only the web app's component tests: everything else in the repo runs under bun:test.
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // Worker threads: the pool that works on Bun too (its child processes lack what forks needs).
    pool: 'threads',
    restoreMocks: true,
    setupFiles: [
      'src/test/no-network.ts',
      'src/test/secure-context.ts',
      'src/test/generous-waits.ts',
      'src/test/typed-array-equality.ts',
    ],
  },
});
