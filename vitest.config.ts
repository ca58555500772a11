import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources of every workspace package: the
// `ollm-source` export condition points each package at its `src/index.ts`,
// so no build is needed before `pnpm test`.
export default defineConfig({
  resolve: { conditions: ['ollm-source', 'import', 'default'] },
  ssr: { resolve: { conditions: ['ollm-source', 'import', 'default'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'plugins/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'internal/*/src/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
