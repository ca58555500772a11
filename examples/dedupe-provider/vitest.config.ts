import { defineConfig } from 'vitest/config';

// `npx vitest run` in this folder. (Inside the ollm repository the root `pnpm test` runs these
// tests too, with the root config; in a package of your own this file is optional.)
export default defineConfig({ test: { include: ['test/**/*.test.ts'] } });
