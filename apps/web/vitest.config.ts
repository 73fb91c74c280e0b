import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    // Only the web app's component tests: everything else in the repo runs under bun:test.
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    restoreMocks: true,
    setupFiles: ['src/test/no-network.ts', 'src/test/generous-waits.ts'],
  },
});
