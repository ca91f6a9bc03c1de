import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { blueprintCssSplit } from './build/blueprintCss.ts';

export default defineConfig({
  plugins: [react(), blueprintCssSplit()],
  test: {
    projects: [
      {
        extends: true,
        // 15 s rather than 5 s per test: on a loaded 2-core CI machine a render or a PDF takes a few seconds.
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/ui/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // One migrated, seeded database for the run, copied into each test app (see the file).
          globalSetup: ['tests/server/template.setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
