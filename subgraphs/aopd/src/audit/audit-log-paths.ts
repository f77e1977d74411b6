/** The audit log's public routes (http/audit-log-routes.ts), where the witness and verify-receipt find them, and the gateway serves them (subgraph-routes.yaml). */
export const auditCheckpointPath = "/.well-known/aopd-audit-checkpoint";
export const auditCheckpointKeyPath = "/.well-known/aopd-audit-checkpoint-key";
export const auditConsistencyPath = "/.well-known/aopd-audit-consistency";
export const auditCosignaturePath = "/.well-known/aopd-audit-cosignature";
