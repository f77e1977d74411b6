/**
 * Benchmarks only: whether `appendAuditEntries` appends at all, so `npm run bench -- --only
 * audit-trail` can measure what the trail costs a decision. Not configuration: nothing outside
 * the benchmark turns it off (it is exported from `@compliance-graph/aopd/internals` only), and a
 * deployment always records.
 */
export const auditTrailSwitch = { recording: true };
