import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  // Vite would resolve `graphql` to its ESM build (index.mjs) while CommonJS packages (@apollo/*)
  // load index.js: two copies of graphql, and its instanceof checks fail. Node itself resolves the
  // CommonJS build, so tests do the same.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }] },
  test: {
    include: ["packages/*/test/**/*.test.ts", "subgraphs/*/test/**/*.test.ts", "gateway/test/**/*.test.ts", "registry/test/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["./packages/test-kit/src/test-database-global-setup.ts"],
    // Database suites create their own databases; two workers match the two cores CI has.
    maxWorkers: 2,
    // Limits for a busy machine (CI runs at a load of 3 to 8 on two cores): many tests start
    // processes, browsers or a whole stack, and take four times as long there as on an idle machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { APOLLO_TELEMETRY_DISABLED: "1", LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
