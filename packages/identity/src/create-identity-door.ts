/**
 * Who calls a subgraph: the one door that every route of a subgraph asks (GraphQL over HTTP, the
 * WebSocket's `connection_init`, the download and media routes, and any route added later).
 *
 * Threat: a caller who reaches a subgraph directly, bypassing the gateway's authentication and
 * authorization, and a subgraph deployed without any way to verify the gateway's identity, which
 * then served every role to anyone (it used to, unless `NODE_ENV=production`). The door is decided
 * once, at start. With a verifier of the gateway's internal token, every request must carry a valid
 * one; anything else is refused with `UnauthenticatedError` (HTTP 401, WebSocket 4401), the reason
 * kept in this process. Without a verifier the subgraph refuses to start, unless
 * `insecureDevelopmentIdentity` (`INSECURE_DEVELOPMENT_IDENTITY=true`) says in so many words that
 * every caller is a developer with every role; production refuses that flag, and so does a
 * subgraph that has a verifier (one of the two would be a mistake). No route decides this for
 * itself, so a new route cannot forget the check or fall back to the development identity alone.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { UnauthenticatedError } from "@compliance-graph/errors";
import type { InternalTokenVerifier } from "./create-internal-token-verifier.js";
import type { Identity } from "./identity.js";

export interface IdentityDoorOptions {
  /** The subgraph's name, as in `supergraph.yaml`; named in the start-up errors. */
  subgraph: string;
  /** Verifies the gateway's internal token (`createInternalTokenVerifier`, `internalTokenVerifierFromEnv`). */
  verifier?: InternalTokenVerifier | undefined;
  /**
   * `INSECURE_DEVELOPMENT_IDENTITY`: without a verifier, every caller is `developmentIdentity`, with
   * every role. For a subgraph run on its own while developing; refused in production and beside a
   * verifier. @default false
   */
  insecureDevelopmentIdentity?: boolean | undefined;
  /** The roles the insecure development identity holds: every role this subgraph declares. @default [] */
  developmentRoles?: readonly string[] | undefined;
  /** `NODE_ENV=production`. */
  production: boolean;
  /** Where a verifier's unexpected failure and the insecure mode are reported (never to the caller). */
  logger: { error(object: object, message: string): void; warn(message: string): void };
}

/** Writes a refusal in the route's own body shape (GraphQL `errors`, or a public route's `{ error, reason }`). */
export type RefuseUnauthenticated = (status: 401, error: UnauthenticatedError) => void;

export interface IdentityDoor {
  /** How the door was decided: the gateway's internal token, or the insecure development identity. */
  readonly mode: "internal-token" | "insecure-development";
  /** The caller, from the request's headers (the `Authorization` header); rejects with `UnauthenticatedError` only. */
  identify(headers: IncomingHttpHeaders, requestId?: string): Promise<Identity>;
  /**
   * The caller of an HTTP request, or undefined once the refusal is sent: `refuse` writes the 401
   * after the RFC 6750 challenge (`WWW-Authenticate: Bearer`) is set. A route's first lines:
   * `const identity = await door.admit(request, response, requestId, refuse); if (!identity) return true;`
   */
  admit(request: IncomingMessage, response: ServerResponse, requestId: string, refuse: RefuseUnauthenticated): Promise<Identity | undefined>;
}

export function createIdentityDoor(options: IdentityDoorOptions): IdentityDoor {
  const { subgraph, verifier, logger } = options;
  if (options.insecureDevelopmentIdentity && options.production) {
    throw new Error(
      `The ${subgraph} subgraph refuses INSECURE_DEVELOPMENT_IDENTITY in production (NODE_ENV=production): it would give every caller every role.`,
    );
  }
  if (options.insecureDevelopmentIdentity && verifier) {
    throw new Error(
      `The ${subgraph} subgraph was given both a verifier of the gateway's internal token and INSECURE_DEVELOPMENT_IDENTITY; unset INSECURE_DEVELOPMENT_IDENTITY.`,
    );
  }
  if (!verifier && options.production) {
    throw new Error(
      `The ${subgraph} subgraph refuses to start in production without identity verification: set INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL.`,
    );
  }
  if (!verifier && !options.insecureDevelopmentIdentity) {
    throw new Error(
      `The ${subgraph} subgraph has no way to verify the gateway's identity: set INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL, ` +
        "or, for development only, INSECURE_DEVELOPMENT_IDENTITY=true (every caller then has every role).",
    );
  }

  let identify: IdentityDoor["identify"];
  if (verifier) {
    identify = async (headers, requestId) => {
      try {
        return await verifier(headers);
      } catch (error) {
        if (error instanceof UnauthenticatedError) throw error;
        // Not the caller's fault as far as we know (a verifier that broke): logged here, refused all the same.
        logger.error({ err: error, ...(requestId ? { requestId } : {}) }, "identity verification failed");
        throw new UnauthenticatedError("A valid internal identity token is required.");
      }
    };
  } else {
    logger.warn(`INSECURE_DEVELOPMENT_IDENTITY: the ${subgraph} subgraph serves every caller as a developer with every role`);
    // Whom the insecure development door serves every caller as: a fresh copy each time.
    const roles = [...(options.developmentRoles ?? [])].sort();
    identify = async () => ({ subject: "development", client: "development", roles: [...roles] });
  }

  return {
    mode: verifier ? "internal-token" : "insecure-development",
    identify,
    async admit(request, response, requestId, refuse) {
      try {
        return await identify(request.headers, requestId);
      } catch (error) {
        if (!(error instanceof UnauthenticatedError)) throw error;
        response.setHeader("www-authenticate", "Bearer");
        refuse(401, error);
        return undefined;
      }
    },
  };
}
