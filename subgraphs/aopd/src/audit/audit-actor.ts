import type { Identity } from "@compliance-graph/identity";
import type { Decider } from "./decider.js";

/**
 * Who acted, named as a decider is named (decider.ts): the internal identity token's subject,
 * client and username, or one of aopd's own named actors (`system: true`, subject `system:<part>`).
 * The customer holds no token, only the proof's one-time link: named `customer` through the door
 * they used (`portal`, `aopp-callback`), which says what they could do and who they were not.
 */
export type AuditActor = Decider;

export function actorOf(identity: Identity): AuditActor {
  return { subject: identity.subject, client: identity.client, username: identity.username ?? null, system: false };
}

/** aopd's expiry job, which marks pending proofs past their due time EXPIRED. */
export const expiryActor: AuditActor = { subject: "system:expiry", client: "aopd", username: "expiry job", system: true };

/** aopd re-screening proofs on an import of a sanctions list version. */
export const screeningActor: AuditActor = { subject: "system:screening", client: "aopd", username: "sanctions screening", system: true };

/** The customer, through the portal's page and API or through an AOPP wallet's callback. */
export function customerActor(door: "portal" | "aopp-callback"): AuditActor {
  return { subject: "customer", client: door, username: null, system: false };
}
