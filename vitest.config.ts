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
      'examples/*/test/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI asks for a JSON report too (OLLM_TEST_JSON=path) so it can print its closing line.
    reporters: process.env.OLLM_TEST_JSON ? ['default', 'json'] : ['default'],
    ...(process.env.OLLM_TEST_JSON ? { outputFile: { json: process.env.OLLM_TEST_JSON } } : {}),
  },
});
