import { startAopd, type RunningAopd, type StartAopdOptions } from "../../src/start-aopd.js";
import type { AopdConfig } from "../../src/aopd-config.js";
import { createTestDatabase } from "@compliance-graph/test-kit";
import type { DatabaseDriver } from "./test-database.js";

export interface TestAopd extends RunningAopd {
  /** Posts a GraphQL request and returns the HTTP status and the parsed body. */
  query(query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: GraphQLBody }>;
}

export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

/** The aopd subgraph on a free port, on a fresh database of the given driver. */
export async function startTestAopd(
  driver: DatabaseDriver,
  options: {
    seedDemoProofs?: number;
    config?: Partial<AopdConfig>;
    compiledExecution?: boolean;
    authenticate?: StartAopdOptions["authenticate"];
    loadBundledSanctionsList?: boolean;
    logger?: StartAopdOptions["logger"];
  } = {},
): Promise<TestAopd> {
  const databaseUrl = driver === "postgres" ? await createTestDatabase("aopdapi") : undefined;
  const aopd = await startAopd({
    // No expiry job unless a test asks for one: the demo proofs' due times lie in the past, and a
    // job expiring them midway would change rows a test is comparing.
    config: { port: 0, databaseUrl, dataDir: "memory://", expiryIntervalSeconds: 0, ...options.config },
    seedDemoProofs: options.seedDemoProofs,
    ...(options.loadBundledSanctionsList !== undefined ? { loadBundledSanctionsList: options.loadBundledSanctionsList } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    // No gateway in front: without a verifier the tests call aopd as a developer with every role, said explicitly.
    ...(options.authenticate ? { authenticate: options.authenticate } : { insecureDevelopmentIdentity: true }),
    ...(options.compiledExecution !== undefined ? { compiledExecution: options.compiledExecution } : {}),
  });
  return {
    ...aopd,
    async query(query, variables = {}) {
      const response = await fetch(aopd.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
      return { status: response.status, body: (await response.json()) as GraphQLBody };
    },
  };
}
