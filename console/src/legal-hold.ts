import type { GatewayApi } from "./gateway-api.js";

/** A proof's legal hold (`AopdLegalHold`): kept past its retention until lifted (docs/audit-trail.md). */
export interface LegalHold {
  since: string;
  reason: string;
}

/** The role that places and lifts a hold (docs/authorization.md). */
export const legalHoldRole = "proofs:assess";

/** Most characters of a hold's reason, as the API allows (1 to 2000). */
export const legalHoldReasonLimit = 2000;

/**
 * Places or lifts a proof's legal hold with the reason (`placeLegalHold`, `liftLegalHold`); the API
 * records it on the audit trail and answers CONFLICT when the proof is already (or not) on hold.
 */
export async function changeLegalHold(api: GatewayApi, id: string, place: boolean, reason: string): Promise<LegalHold | null> {
  const field = place ? "placeLegalHold" : "liftLegalHold";
  const data = await api.graphql<{ aopd: Record<string, { legalHold: LegalHold | null }> }>(
    `mutation LegalHold($id: ID!, $reason: String!) { aopd { ${field}(id: $id, reason: $reason) { id legalHold { since reason } } } }`,
    { id, reason },
  );
  return data.aopd[field]!.legalHold;
}
