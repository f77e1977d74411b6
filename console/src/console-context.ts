import type { ConsoleConfig } from "./console-config.js";
import type { GatewayApi } from "./gateway-api.js";
import type { LiveProofs } from "./live-proofs.js";
import type { OfficerSession } from "./officer-session.js";
import type { Asset } from "./proof-fields.js";

/** What every screen is given: who is signed in, the API, the live events, the assets, and navigation. */
export interface ConsoleContext {
  config: ConsoleConfig;
  session: OfficerSession;
  api: GatewayApi;
  live: LiveProofs;
  assets: Map<string, Asset>;
  /** The reason codes a decision may name, as the API lists them (`configuration.decisionReasons`). */
  decisionReasons: string[];
  /** Goes to a path under /console/ (with its query) without reloading; `replace` keeps the history entry. */
  navigate(path: string, replace?: boolean): void;
  /** Registers a clean-up that runs when the screen is left (a live listener, say). */
  onLeave(cleanup: () => void): void;
}
