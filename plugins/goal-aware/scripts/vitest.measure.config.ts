import { defineConfig } from 'vitest/config';

// Measurements print figures and are not tests; they run only on request, never in CI:
//   pnpm vitest run --config plugins/goal-aware/scripts/vitest.measure.config.ts
export default defineConfig({
  resolve: { conditions: ['ollm-source', 'import', 'default'] },
  ssr: { resolve: { conditions: ['ollm-source', 'import', 'default'] } },
  test: {
    root: new URL('../../../', import.meta.url).pathname,
    include: ['plugins/goal-aware/scripts/*.measure.ts'],
    testTimeout: 600_000,
  },
});
