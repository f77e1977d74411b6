/**
 * The role model. A role is granted in the identity provider (Keycloak: a realm role or a client
 * role of the API's client) and required per field with `@requiresRole` in the subgraph schemas.
 */
export const roles = {
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
  /** Read travel-rule data (VASPs, transfers). */
  travelRuleRead: "travel-rule:read",
  /** Check, publish, roll back and remove subgraphs in the schema registry (docs/schema-registry.md). */
  schemaPublish: "schema:publish",
  /** Change which clients own a subgraph in the schema registry. */
  schemaAdmin: "schema:admin",
} as const;

export type Role = (typeof roles)[keyof typeof roles];

export const allRoles: readonly Role[] = Object.values(roles);

const known = new Set<string>(allRoles);

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && known.has(value);
}
