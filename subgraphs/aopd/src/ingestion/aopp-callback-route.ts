import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "@compliance-graph/server-kit";
import { BodyTooLargeError, MalformedBodyError, readJsonBody, sendJson } from "@compliance-graph/server-kit";
import type { Kysely } from "kysely";
import type { AopdConfig } from "../aopd-config.js";
import type { AopdDatabase } from "../database/database-schema.js";
import { acceptAoppCallback, callbackBodyProblem, type AoppCallbackBody } from "./accept-aopp-callback.js";
import { isCallbackTokenShaped } from "./callback-token.js";

/** Where wallets post signatures: `POST /aopp/callback/<token>`. */
export const aoppCallbackPathPrefix = "/aopp/callback/";

/** A wallet's body is a handful of short strings; anything larger is not a callback. */
const maxCallbackBodyBytes = 16_384;

/**
 * The public AOPP callback. It is reachable without a bearer token by design (wallets cannot
 * obtain one), so the unguessable token in the path is the only credential, the body is capped,
 * and every answer says no more than a wallet needs to act on: 204 verified, 400 with a reason
 * the user can fix, 404 for a token we did not issue, 409 for a proof no longer pending.
 */
export function aoppCallbackRoute(services: { db: Kysely<AopdDatabase>; config: AopdConfig; logger: Logger }) {
  return async (request: IncomingMessage, response: ServerResponse, requestId: string): Promise<boolean> => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (!path.startsWith(aoppCallbackPathPrefix)) return false;
    const token = path.slice(aoppCallbackPathPrefix.length);
    if (request.method !== "POST") {
      response.setHeader("allow", "POST");
      sendJson(response, 405, { error: "method_not_allowed" });
      return true;
    }
    if (!isCallbackTokenShaped(token)) {
      sendJson(response, 404, { error: "unknown_callback" });
      return true;
    }
    let body: unknown;
    try {
      body = await readJsonBody(request, maxCallbackBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return (sendJson(response, 413, { error: "body_too_large", reason: error.message }), true);
      if (error instanceof MalformedBodyError) return (sendJson(response, 400, { error: "bad_request", reason: error.message }), true);
      throw error;
    }
    const problem = callbackBodyProblem(body);
    if (problem) {
      sendJson(response, 400, { error: "bad_request", reason: problem });
      return true;
    }
    const outcome = await acceptAoppCallback(services.db, services.config, token, body as AoppCallbackBody);
    switch (outcome.kind) {
      case "verified":
        services.logger.info({ requestId, proofId: outcome.proof.id }, "AOPP proof verified");
        response.writeHead(204).end();
        break;
      case "unknown-token":
        sendJson(response, 404, { error: "unknown_callback" });
        break;
      case "bad-request":
        sendJson(response, 400, { error: "bad_request", reason: outcome.reason });
        break;
      case "refused":
        sendJson(response, 409, { error: "not_pending", reason: outcome.reason });
        break;
    }
    return true;
  };
}
