import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "subgraphs/*/test/**/*.test.ts", "gateway/test/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["./test/support/global-setup.ts"],
    // Database suites create their own databases; two workers match the two cores CI has.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { APOLLO_TELEMETRY_DISABLED: "1" },
  },
});
