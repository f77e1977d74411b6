/** The schema registry's door: start it, and what its gateways and tests verify with. */
export { startRegistry, type RunningRegistry, type StartRegistryOptions } from "./start-registry.js";
export { registryConfigFromEnv, type RegistryConfig } from "./registry-config.js";
export { registryRoles } from "./registry-roles.js";
export { usageReporterClient } from "./http/registry-routes.js";
export { verifySupergraphSignature, sha256Hex, type SupergraphSignaturePayload } from "./signing/sign-supergraph.js";
export { openRegistryDatabase, type OpenRegistryDatabase } from "./database/open-registry-database.js";
export { recordUsage, usageOf, pruneUsage, type UsageHit } from "./usage/usage-store.js";
export { parseUsageReports, type UsageReport } from "./usage/usage-report.js";
export type { CheckReport } from "./check/check-report.js";
