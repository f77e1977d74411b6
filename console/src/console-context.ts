import type { ConsoleConfig } from "./console-config.js";
import type { GatewayApi } from "./gateway-api.js";
import type { LiveProofs } from "./live-proofs.js";
import type { OfficerSession } from "./officer-session.js";
import type { Asset, ProofKind } from "./proof-fields.js";

/** What the console reads of a proof kind. */
export interface ConsoleProofKind {
  decidedByOfficer: boolean;
  /** Whether an officer decides a proof of the kind its evidence left for review (`leftForReview`): a listed signature under the refusal policy. */
  decidedByOfficerWhenLeftForReview: boolean;
  /** Whether its decisions, and the reopening of them, need a second officer (`AOPD_FOUR_EYES_KINDS`). */
  fourEyes: boolean;
  /** The reason codes a decision of the kind may name, in the order the form lists them. */
  decisionReasons: string[];
}

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
