import { graphql, type ResultOf } from "./graphql/graphql.js";
import type { ConsoleConfig } from "./console-config.js";
import type { GatewayApi } from "./gateway-api.js";
import type { LiveProofs } from "./live-proofs.js";
import type { OfficerSession } from "./officer-session.js";
import type { Asset, ProofKind } from "./proof-fields.js";

/**
 * What the console reads of a proof kind (`AopdProofKind`): whether an officer decides it (always,
 * or, `decidedByOfficerWhenLeftForReview`, a proof its evidence left for review: a listed signature
 * under the refusal policy), whether
 * its decisions (and the reopening of them) need a second officer (`AOPD_FOUR_EYES_KINDS`), and the
 * reason codes a decision of the kind may name, in the order the form lists them.
 */
export const proofKindFields = graphql(`
  fragment ConsoleProofKindFields on AopdProofKind {
    name
    decidedByOfficer
    decidedByOfficerWhenLeftForReview
    decisionReasons
    fourEyes
  }
`);

export type ConsoleProofKind = Omit<ResultOf<typeof proofKindFields>, "name">;

/** What every screen is given: who is signed in, the API, the live events, the assets, and navigation. */
export interface ConsoleContext {
  config: ConsoleConfig;
  session: OfficerSession;
  api: GatewayApi;
  live: LiveProofs;
  assets: Map<string, Asset>;
  /**
   * The proof kinds as the API describes them (`configuration.proofKinds`): which an officer decides
   * and the reason codes of each, so a kind added there is decided here without a copy of the list.
   */
  proofKinds: Map<ProofKind, ConsoleProofKind>;
  /** Goes to a path under /console/ (with its query) without reloading; `replace` keeps the history entry. */
  navigate(path: string, replace?: boolean): void;
  /** Registers a clean-up that runs when the screen is left (a live listener, say). */
  onLeave(cleanup: () => void): void;
}
