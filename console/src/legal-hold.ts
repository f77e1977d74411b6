import type { GatewayApi } from "./gateway-api.js";
import type { Role } from "./graphql/api-values.js";
import { graphql, type ResultOf } from "./graphql/graphql.js";

/** A proof's legal hold (`AopdLegalHold`): kept past its retention until lifted (docs/audit-trail.md). */
export const legalHoldFields = graphql(`
  fragment LegalHoldFields on AopdLegalHold {
    since
    reason
  }
`);

export type LegalHold = ResultOf<typeof legalHoldFields>;

const placeHold = graphql(
  `
    mutation PlaceLegalHold($id: ID!, $reason: String!) {
      aopd {
        changed: placeLegalHold(id: $id, reason: $reason) {
          id
          legalHold {
            ...LegalHoldFields
          }
        }
      }
    }
  `,
  [legalHoldFields],
);

const liftHold = graphql(
  `
    mutation LiftLegalHold($id: ID!, $reason: String!) {
      aopd {
        changed: liftLegalHold(id: $id, reason: $reason) {
          id
          legalHold {
            ...LegalHoldFields
          }
        }
      }
    }
  `,
  [legalHoldFields],
);

/** The role that places and lifts a hold (docs/authorization.md). */
export const legalHoldRole: Role = "proofs:assess";

/** Most characters of a hold's reason, as the API allows (1 to 2000). */
export const legalHoldReasonLimit = 2000;

/**
 * Places or lifts a proof's legal hold with the reason (`placeLegalHold`, `liftLegalHold`); the API
 * records it on the audit trail and answers CONFLICT when the proof is already (or not) on hold.
 */
export async function changeLegalHold(api: GatewayApi, id: string, place: boolean, reason: string): Promise<LegalHold | null> {
  const data = await api.graphql(place ? placeHold : liftHold, { id, reason });
  return data.aopd?.changed.legalHold ?? null;
}
