import { customerActor } from "../audit/audit-actor.js";
import type { Logger, RouteDefinition } from "@compliance-graph/process-shell";
import { allowAnyOrigin, answerPreflight } from "./cross-origin.js";
import { answerPublicRouteFailure } from "./answer-public-route-failure.js";
import { PublicRouteError } from "./public-route-error.js";
import { useOf, type PublicRouteLimits } from "./public-route-limits.js";
import { optionalString, readPublicBody, requiredString } from "./read-public-body.js";
import { acceptProofSignature, type SignatureAcceptanceServices } from "../kinds/signature/accept-proof-signature.js";
import { isCallbackTokenShaped } from "../ingestion/callback-token.js";

/** Where wallets post signatures: `POST /aopp/callback/<token>`. */
export const aoppCallbackPathPrefix = "/aopp/callback/";

/** A wallet's body is a handful of short strings; anything larger is not a callback. */
export const maxCallbackBodyBytes = 16_384;

/**
 * The public AOPP callback. It is reachable without a bearer token by design (wallets cannot
 * obtain one), so the unguessable token in the path is the only credential, every request is
 * rate-limited per client address and per credential, the body is capped, and every answer says no
 * more than a wallet needs to act on: 204 verified (again 204 for a retry of the accepted
 * signature), otherwise the public routes' `{ error, reason }` (see `PublicRouteError`). The
 * verification is the portal's too (`acceptProofSignature`).
 */
export function aoppCallbackRoute(services: SignatureAcceptanceServices & { limits: PublicRouteLimits; logger: Logger }): RouteDefinition<never> {
  const handle: RouteDefinition<never>["handle"] = async ({ request, response, requestId, rest: token }) => {
    if (request.method === "OPTIONS") return answerPreflight(response, "POST");
    allowAnyOrigin(response);
    try {
      services.limits.check(request, isCallbackTokenShaped(token) ? token : undefined, useOf(request));
      if (request.method !== "POST") {
        response.setHeader("allow", "POST, OPTIONS");
        throw new PublicRouteError("method_not_allowed", `${request.method ?? "This method"} is not allowed here; wallets POST the signature.`);
      }
      if (!isCallbackTokenShaped(token)) throw new PublicRouteError("unknown_proof", "This callback URL does not belong to a proof.");
      const body = await readPublicBody(request, maxCallbackBodyBytes);
      if (body.version !== 0) throw new PublicRouteError("invalid_body", "Only AOPP version 0 is supported: version must be 0.");
      const accepted = await acceptProofSignature(
        services,
        token,
        {
          address: requiredString(body, "address", 128),
          signature: requiredString(body, "signature", 4_096),
          xpub: optionalString(body, "xpub", 200),
        },
        { actor: customerActor("aopp-callback"), requestId },
      );
      if (!accepted.repeated) services.logger.info({ requestId, proofId: accepted.proof.id, status: accepted.proof.status }, "AOPP signature accepted");
      response.writeHead(204, { "cache-control": "no-store" }).end();
    } catch (error) {
      answerPublicRouteFailure(response, error, services.logger, requestId);
    }
  };
  // Public by design: the credential in the path is the caller's only proof; methods are the handler's (a preflight, then POST).
  return { path: `${aoppCallbackPathPrefix}*`, access: "public", handle };
}
