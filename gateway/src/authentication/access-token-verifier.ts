/**
 * Verifies the callers' OIDC access tokens. Threats: a request without a token, or with a token
 * that is forged (bad signature, `alg: none`, an HMAC signed with the issuer's public key as the
 * secret), signed by a key the issuer never published, issued by another issuer or for another
 * audience, expired, not yet valid, or without an expiry at all. Each is refused: algorithms come
 * from an allowlist (never from the token), keys only from the issuer's discovered JWKS, and
 * issuer, audience, `exp` and `sub` are required. Callers learn only that the token was refused;
 * the reason goes to the log.
 *
 * A token that is valid but stamped to live for days (a leaked signing key, a misconfigured
 * client) or issued in the future (a clock pushed ahead to mint tokens that outlive a key
 * rotation) is refused too: `iat` may lie at most the clock tolerance ahead, and `exp - iat` may
 * not exceed `maxLifetimeSeconds`. In production the issuer must be `https` (except loopback, for
 * tests), since discovery and keys fetched over plain HTTP can be replaced on the way. A token of
 * the issuer that is not an access token (an ID token whose `aud` matches) is refused too: it must
 * carry one of the `accessTokenMarkers` (see access-token-marker.ts).
 */
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type RemoteJWKSet } from "jose";
import { GatewayMetrics } from "../gateway-metrics.js";
import { IdentityProviderUnavailableError, UnauthenticatedError } from "@compliance-graph/errors";
import { checkTokenTimes, ExpiringCache, identityFromClaims, keycloakRoleSources, type Identity, type RoleSource } from "@compliance-graph/identity";
import { defaultAccessTokenMarkers, hasAccessTokenMarker, type AccessTokenMarker } from "./access-token-marker.js";
import { discoverIssuer } from "./discover-issuer.js";

export interface AccessTokenVerifierOptions {
  /** `OIDC_ISSUER`: the issuer URL, exactly as in its tokens' `iss`. */
  issuer: string;
  /** `OIDC_AUDIENCE`: the audience the API's tokens carry. */
  audience: string;
  /** `OIDC_ALGORITHMS` (comma-separated). @default ["RS256"] */
  algorithms?: string[];
  /** `OIDC_CLOCK_TOLERANCE_SECONDS`: skew tolerated on `exp`, `nbf`. @default 10 // seconds */
  clockToleranceSeconds?: number;
  /** `OIDC_ROLE_CLIENTS` (comma-separated): clients whose client roles count, beside realm roles. @default [audience] */
  roleClients?: string[];
  /** `OIDC_ROLE_SOURCES`: where tokens carry roles (see `RoleSource`); replaces `roleClients`. @default realm roles and the role clients' roles */
  roleSources?: RoleSource[];
  /** Most verified tokens remembered until they expire. @default 10_000 */
  maxCachedTokens?: number;
  /**
   * Least time between two JWKS fetches triggered by an unknown key id: a rotated key is picked up
   * on first sight, but a flood of made-up key ids cannot turn into a flood of JWKS requests.
   * @default 30_000 // 30 seconds
   */
  jwksCooldownMs?: number;
  /** JWKS refetched when older than this, even without an unknown key id. @default 600_000 // 10 minutes */
  jwksMaxAgeMs?: number;
  /**
   * `OIDC_MAX_TOKEN_LIFETIME_SECONDS`: the longest `exp - iat` accepted (`exp - now` when a token
   * has no `iat`). Keycloak issues 5-minute access tokens by default; the limit leaves room for
   * realms configured up to a day and refuses tokens stamped to live longer. @default 86_400 // 24 hours
   */
  maxLifetimeSeconds?: number;
  /** Refuse an issuer that is not `https` (loopback excepted); the gateway sets it in production. @default false */
  requireHttpsIssuer?: boolean;
  /**
   * `OIDC_ACCESS_TOKEN_MARKERS`: what a token must carry to count as an access token, one of them
   * suffices; empty checks nothing (`none`). @default header `typ` "at+jwt" or claim `typ` "Bearer"
   */
  accessTokenMarkers?: readonly AccessTokenMarker[];
  /**
   * Which granted roles an identity keeps: the gateway passes the roles its supergraph and routes
   * declare (`ServedRoles`). @default every role granted: for the verifier tested on its own
   */
  isDeclaredRole?: (role: string) => boolean;
  /** The clock, for tests: token times and the cache of verified tokens. @default Date.now // epoch milliseconds */
  now?: () => number;
}

/** True for an `https` URL, or an `http` one on a loopback host (127.0.0.0/8, ::1, localhost). */
export function isSecureIssuer(issuer: string): boolean {
  const url = new URL(issuer);
  if (url.protocol === "https:") return true;
  if (url.protocol !== "http:") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export interface AccessTokenVerifier {
  verify(token: string): Promise<Identity>;
  /**
   * Resolves once the issuer's signing keys are at hand: fetched now, or cached from an earlier
   * fetch (a token can then be verified while the identity provider is briefly down). Rejects with
   * `IdentityProviderUnavailableError` when they were never fetched and cannot be now.
   */
  ensureSigningKeys(): Promise<void>;
  /** Forgets the identities of tokens verified so far: the roles served changed, so they are read again. */
  forgetVerifiedTokens(): void;
}

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions, log?: (reason: string) => void, metrics?: GatewayMetrics): AccessTokenVerifier {
  const algorithms = options.algorithms ?? ["RS256"];
  if (algorithms.some((algorithm) => algorithm === "none" || algorithm.startsWith("HS"))) {
    throw new Error("OIDC_ALGORITHMS may name asymmetric algorithms only.");
  }
  if (options.requireHttpsIssuer && !isSecureIssuer(options.issuer)) {
    throw new Error(`OIDC_ISSUER must be an https URL in production (http only on loopback); got ${JSON.stringify(options.issuer)}.`);
  }
  const times = { clockToleranceSeconds: options.clockToleranceSeconds ?? 10, maxLifetimeSeconds: options.maxLifetimeSeconds ?? 86_400 };
  const markers = options.accessTokenMarkers ?? defaultAccessTokenMarkers;
  const now = options.now ?? Date.now;
  const roleSources = options.roleSources ?? keycloakRoleSources(options.roleClients ?? [options.audience]);
  const cache = new ExpiringCache<Identity>(options.maxCachedTokens ?? 10_000, now);
  // Discovery is lazy and retried after a failure, so the gateway can start before its issuer.
  let keys: Promise<RemoteJWKSet> | undefined;
  const getKeys = () => {
    keys ??= discoverIssuer(options.issuer).then(
      ({ jwksUri }) =>
        createRemoteJWKSet(new URL(jwksUri), {
          cooldownDuration: options.jwksCooldownMs ?? 30_000,
          cacheMaxAge: options.jwksMaxAgeMs ?? 600_000,
          [customFetch]: async (url: string, init: RequestInit) => {
            try {
              const response = await fetch(url, init);
              metrics?.jwksFetches.inc({ outcome: response.ok ? "ok" : "error" });
              return response;
            } catch (error) {
              metrics?.jwksFetches.inc({ outcome: "error" });
              throw error;
            }
          },
        }),
      (error: unknown) => {
        keys = undefined;
        throw new IdentityProviderUnavailableError((error as Error).message);
      },
    );
    return keys;
  };

  const isDeclaredRole = options.isDeclaredRole ?? (() => true);

  return {
    forgetVerifiedTokens() {
      cache.clear();
    },
    async ensureSigningKeys() {
      const jwks = await getKeys();
      if (jwks.jwks()) return;
      try {
        await jwks.reload();
      } catch (error) {
        throw new IdentityProviderUnavailableError((error as Error).message);
      }
    },
    async verify(token) {
      const cached = cache.get(token);
      if (cached) {
        metrics?.tokenVerifications.inc({ outcome: "cached" });
        return cached;
      }
      const jwks = await getKeys();
      let payload;
      try {
        const at = now();
        let protectedHeader;
        ({ payload, protectedHeader } = await jwtVerify(token, jwks, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms,
          requiredClaims: ["exp", "sub"],
          clockTolerance: times.clockToleranceSeconds,
          currentDate: new Date(at),
        }));
        checkTokenTimes(payload, times, at);
        if (!hasAccessTokenMarker(protectedHeader, payload, markers)) {
          throw new Error(`not an access token (typ header ${JSON.stringify(protectedHeader.typ)}, typ claim ${JSON.stringify(payload.typ)})`);
        }
      } catch (error) {
        if (error instanceof joseErrors.JWKSTimeout || (error instanceof Error && error.name === "TypeError")) {
          metrics?.tokenVerifications.inc({ outcome: "unavailable" });
          throw new IdentityProviderUnavailableError(error.message);
        }
        const reason = error instanceof joseErrors.JOSEError ? error.code : (error as Error).message;
        log?.(reason);
        metrics?.tokenVerifications.inc({ outcome: GatewayMetrics.refusalReason(reason) });
        throw new UnauthenticatedError();
      }
      metrics?.tokenVerifications.inc({ outcome: "ok" });
      const identity = identityFromClaims(payload, roleSources, isDeclaredRole);
      cache.set(token, identity, (payload.exp ?? 0) * 1000);
      return identity;
    },
  };
}
