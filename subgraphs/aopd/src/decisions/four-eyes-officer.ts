import { PublicError } from "@compliance-graph/errors";
import type { Decider } from "../audit/decider.js";

/** What four eyes needs to know of the deployment: the kinds under it, and the service clients allowed to act as one of the two. */
export interface FourEyesRules {
  /** `AOPD_FOUR_EYES_KINDS`. */
  fourEyesKinds: readonly string[];
  /** `AOPD_FOUR_EYES_SERVICE_CLIENTS`. */
  fourEyesServiceClients: readonly string[];
}

/**
 * Whether the token names no person: a client-credentials token. Keycloak names a client's service
 * account `service-account-<client id>` (`preferred_username`; a user cannot be given that prefix)
 * and other providers give such a token no username at all.
 */
export function isServiceClient(decider: Decider): boolean {
  return decider.username === null || decider.username.startsWith("service-account-");
}

/**
 * Threat: a second pair of eyes that is no person. Whoever holds a service client's secret (a
 * deployment's API account, in development the realm's own) could otherwise propose with their
 * own account and confirm with the client's, one person deciding alone. So under four eyes only a
 * person's token proposes, confirms or rejects, unless the deployment names the client in
 * `AOPD_FOUR_EYES_SERVICE_CLIENTS` (an automated reviewer it trusts as an officer).
 */
export function requireFourEyesOfficer(decider: Decider, rules: FourEyesRules, doing: string): void {
  if (!isServiceClient(decider) || rules.fourEyesServiceClients.includes(decider.client)) return;
  throw new PublicError(
    "FORBIDDEN",
    `Four eyes: a token without a user (the client ${decider.client}'s own) cannot ${doing}; an officer signs in as a person. ` +
      "A deployment may allow a named service client with AOPD_FOUR_EYES_SERVICE_CLIENTS.",
    { client: decider.client },
  );
}
