import { customerActor } from "../audit/audit-actor.js";
import { clientAddress, sendJson, type Logger, type RouteDefinition } from "@compliance-graph/process-shell";
import { acceptProofSignature, type SignatureAcceptanceServices } from "../kinds/signature/accept-proof-signature.js";
import { hashCallbackToken, isCallbackTokenShaped } from "../ingestion/callback-token.js";
import { submitSatoshiTransaction } from "../kinds/satoshi/submit-satoshi-transaction.js";
import { acceptMediaUpload } from "../kinds/media/accept-media-upload.js";
import type { MediaUploadSlots } from "../kinds/media/media-upload-slots.js";
import { allowAnyOrigin, answerPreflight } from "./cross-origin.js";
import type { PortalEventStreams } from "./portal-event-streams.js";
import { publicProofColumns, toPublicProofView, type PublicProofSource } from "./public-proof-view.js";
import { answerPublicRouteFailure } from "./answer-public-route-failure.js";
import { PublicRouteError } from "./public-route-error.js";
import { useOf, type PublicRouteLimits } from "./public-route-limits.js";
import { optionalString, readPublicBody, requiredString } from "./read-public-body.js";

/** The portal's API: `/portal/api/proof/<credential>[/signature|/transaction|/media|/events]`. */
export const portalApiPathPrefix = "/portal/api/";
const proofPathPrefix = "/portal/api/proof/";

/** A signature (or a wallet's signed-message block with a message of at most 1024 characters) fits easily. */
export const maxSignatureBodyBytes = 16_384;
export const maxTransactionBodyBytes = 1_024;

const methodsOf = { view: "GET", signature: "POST", transaction: "POST", media: "POST", events: "GET" } as const;
type Action = keyof typeof methodsOf;

/**
 * The public half of the customer portal. Threat: these routes need no bearer token (customers
 * have none), so the 256-bit one-time credential in the path is the only thing that names a proof,
 * and everything reachable with it is that proof's public view (never the customer id, the comment,
 * another proof) and the two submissions the customer is asked for. Anything that is not exactly
 * a credential-shaped path segment (other proofs' ids, `..`, encoded slashes) is `unknown_proof`
 * before the database is asked; each request counts against the client's and the credential's rate
 * limits; bodies are capped. A signature goes through `acceptProofSignature`, the AOPP callback's
 * own path; a transaction id through `finalizeSatoshiProof`'s rules; a media file (the raw body)
 * through `acceptMediaUpload`, the officers' upload path, capped per type while it streams.
 */
export function portalApiRoute(
  services: SignatureAcceptanceServices & { limits: PublicRouteLimits; streams: PortalEventStreams; uploadSlots: MediaUploadSlots; logger: Logger },
): RouteDefinition<never> {
  const { db, config } = services;
  const readSource = (token: string): Promise<PublicProofSource | undefined> =>
    db.selectFrom("aopd_proof").select(publicProofColumns).where("callback_token_hash", "=", hashCallbackToken(token)).executeTakeFirst();

  const handle: RouteDefinition<never>["handle"] = async ({ request, response, requestId, path }) => {
    const [token = "", action = "view", ...rest] = path.startsWith(proofPathPrefix) ? path.slice(proofPathPrefix.length).split("/") : [];
    const known = rest.length === 0 && action in methodsOf && isCallbackTokenShaped(token);
    const methods = known ? `${methodsOf[action as Action]}, OPTIONS` : "GET, POST, OPTIONS";
    if (request.method === "OPTIONS") return answerPreflight(response, methods);
    allowAnyOrigin(response);
    try {
      services.limits.check(request, isCallbackTokenShaped(token) ? token : undefined, useOf(request));
      if (!known) throw new PublicRouteError("unknown_proof", "This link does not belong to a proof.");
      const expected = methodsOf[action as Action];
      if (request.method !== expected && !(action === "view" && request.method === "HEAD")) {
        response.setHeader("allow", methods);
        throw new PublicRouteError("method_not_allowed", `${request.method ?? "This method"} is not allowed here; use ${expected}.`);
      }
      const answer = (status: number, body: unknown) => {
        response.setHeader("cache-control", "no-store");
        sendJson(response, status, body);
      };
      switch (action as Action) {
        case "view": {
          const source = await readSource(token);
          if (!source) throw new PublicRouteError("unknown_proof", "This link does not belong to a proof.");
          answer(200, toPublicProofView(config, source, token));
          break;
        }
        case "signature": {
          const body = await readPublicBody(request, maxSignatureBodyBytes);
          const accepted = await acceptProofSignature(
            services,
            token,
            {
              address: optionalString(body, "address", 128),
              signature: requiredString(body, "signature", 8_192),
              xpub: optionalString(body, "xpub", 200),
            },
            { actor: customerActor("portal"), requestId },
          );
          if (!accepted.repeated) services.logger.info({ requestId, proofId: accepted.proof.id, status: accepted.proof.status }, "portal signature accepted");
          answer(200, { proof: toPublicProofView(config, accepted.proof, token) });
          break;
        }
        case "transaction": {
          const body = await readPublicBody(request, maxTransactionBodyBytes);
          const proof = await submitSatoshiTransaction(services, token, requiredString(body, "txId", 130).trim(), requestId);
          answer(200, { proof: toPublicProofView(config, proof, token) });
          break;
        }
        case "media": {
          const sender = `address:${clientAddress(request, config.trustedProxyHops)}`;
          const stored = await acceptMediaUpload(services, request, { credentialHash: hashCallbackToken(token) }, sender, {
            actor: customerActor("portal"),
            requestId,
          });
          if (!stored.repeated) services.logger.info({ requestId, proofId: stored.row.id }, "portal media uploaded");
          answer(200, { proof: toPublicProofView(config, stored.row, token) });
          break;
        }
        case "events": {
          const first = await readSource(token);
          if (!first) throw new PublicRouteError("unknown_proof", "This link does not belong to a proof.");
          await services.streams.serve(
            response,
            token,
            first.id,
            () => readSource(token),
            (source) => toPublicProofView(config, source, token),
          );
          break;
        }
      }
    } catch (error) {
      answerPublicRouteFailure(response, error, services.logger, requestId);
    }
  };
  // Public by design: the credential in the path is the caller's only proof; methods differ per action, so the handler checks them.
  return { path: `${portalApiPathPrefix}*`, access: "public", handle };
}
