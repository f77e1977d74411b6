import type { JWTPayload } from "jose";

/**
 * The internal identity token: a JWT the gateway signs with its own key for one subgraph. The
 * distinct `typ` keeps it from being confused with an OIDC access token (RFC 8725 section 3.11),
 * and the audience (the subgraph's name) keeps a token minted for one subgraph from being replayed
 * against another.
 */
export const internalTokenType = "cg-internal+jwt";

/** ES256: small signatures, fast to sign and to verify, and an asymmetric key pair. */
export const internalTokenAlgorithm = "ES256";

/** @default "compliance-graph-gateway" */
export const defaultInternalTokenIssuer = "compliance-graph-gateway";

/**
 * The caller's identity as the internal token carries it: what `createInternalTokenMinter` signs
 * (beside `iss`, `aud`, `iat` and `exp`) and what `createInternalTokenVerifier` reads back.
 */
export interface InternalTokenClaims extends JWTPayload {
  /** The caller's subject (`Identity.subject`). */
  sub: string;
  /** The client the caller's access token was issued to. */
  azp: string;
  preferred_username?: string;
  /** The roles the gateway kept: those its served supergraph and routes declare (served-roles.ts). */
  roles: string[];
}
