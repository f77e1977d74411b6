import { PublicError } from "./public-error.js";

/**
 * The gateway now serves a new version of the supergraph, so a subscription planned against the
 * old one ends; subscribing again plans it against the new one. `reason` tells a client this
 * apart from an outage.
 */
export class SupergraphReloadedError extends PublicError {
  constructor() {
    super("SERVICE_UNAVAILABLE", "The gateway loaded a new version of the supergraph; subscribe again.", { reason: "SUPERGRAPH_RELOADED" });
  }
}
