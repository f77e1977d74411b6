import type { JWTPayload } from "jose";

export interface TokenTimeLimits {
  /** Skew tolerated between the issuer's clock and ours, on `exp`, `nbf` and `iat`, in seconds. */
  clockToleranceSeconds: number;
  /** The longest lifetime accepted (`exp - iat`, or `exp - now` without `iat`), in seconds. */
  maxLifetimeSeconds: number;
}

/**
 * The checks of a token's times that `jose`'s `jwtVerify` does not make, shared by both verifiers
 * (the gateway's of access tokens, the subgraphs' of internal tokens). `jwtVerify` has already
 * checked `exp` and `nbf`, with the same clock (`currentDate`) and the same tolerance; this refuses
 * a token issued in the future beyond the tolerance (a clock pushed ahead to mint tokens that
 * outlive a key rotation) and a token stamped to live longer than the limit (a leaked signing key,
 * a misconfigured client). Throws an `Error` whose message is the reason, for the log only.
 *
 * `nowMs` is the verifier's clock, in epoch milliseconds.
 */
export function checkTokenTimes(payload: JWTPayload, limits: TokenTimeLimits, nowMs: number): void {
  const now = nowMs / 1000;
  const issuedAt = typeof payload.iat === "number" ? payload.iat : undefined;
  if (issuedAt !== undefined && issuedAt > now + limits.clockToleranceSeconds) throw new Error("iat lies in the future");
  const lifetime = (payload.exp ?? 0) - (issuedAt ?? Math.floor(now));
  if (lifetime > limits.maxLifetimeSeconds) throw new Error(`lifetime ${lifetime} s exceeds ${limits.maxLifetimeSeconds} s`);
}
