/**
 * aopd's roles. A role is granted in the identity provider (Keycloak: a realm role or a client role
 * of the API's client) and required per field with `@requiresRole` in aopd's schema, or by aopd's
 * own routes. The gateway learns them from the supergraph it serves, so these names live here.
 */
export const aopdRoles = {
  /** Read proofs, their configuration and the portal assets. */
  proofsRead: "proofs:read",
  /** Export proofs as XLSX. */
  proofsExport: "proofs:export",
  /** Request proofs and attach their evidence. */
  proofsWrite: "proofs:write",
  /** Decide proofs (VERIFIED or FAILED) and reopen decided ones. */
  proofsAssess: "proofs:assess",
  /** Read the audit trail: every action on proofs and who took it (`auditTrail`, a proof's `history`). */
  auditRead: "audit:read",
} as const;

/** Every role of aopd: the insecure development identity's. */
export const allAopdRoles: readonly string[] = Object.values(aopdRoles);
