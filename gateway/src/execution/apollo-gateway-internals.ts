/**
 * The pieces of `@apollo/gateway` 2.14's plan execution that its package does not export, read
 * from its build (`dist/`), in this one file. The plan's executor (run-query-plan.ts) is a port of
 * `executeQueryPlan`; where it can, it calls these very functions rather than copies, so that
 * merging, rewrites, error paths and the shaping of answers with errors stay Apollo's own. The
 * versions are pinned (2.14.x); the differential test (plan-execution-differential.test.ts) fails
 * should a new version change what these do.
 */
export { deepMerge } from "@apollo/gateway/dist/utilities/deepMerge.js";
export { hasOwn, getOwn } from "@apollo/gateway/dist/utilities/own.js";
export { applyRewrites, isObjectOfType } from "@apollo/gateway/dist/dataRewrites.js";
export { computeResponse } from "@apollo/gateway/dist/resultShaping.js";
export { generateHydratedPaths } from "@apollo/gateway/dist/executeQueryPlan.js";
export { GraphQLDataSourceRequestKind } from "@apollo/gateway/dist/datasources/types.js";
