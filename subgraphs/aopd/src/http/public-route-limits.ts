import type { IncomingMessage } from "node:http";
import { clientAddress, TokenBucketLimiter } from "@compliance-graph/process-shell";
import type { AopdConfig } from "../aopd-config.js";
import { PublicRouteError } from "./public-route-error.js";

/**
 * What a public request costs: a `read` (the proof's view, its event stream: what loading and
 * reloading the page does) or a `submission` (a signature, a transaction id, a file, the AOPP
 * callback: what burns CPU and counts as an attempt).
 */
export type PublicRequestUse = "read" | "submission";

type LimitConfig = Pick<
  AopdConfig,
  "rateLimitPerClient" | "rateLimitPerCredential" | "readRateLimitPerClient" | "readRateLimitPerCredential" | "rateLimitMaxKeys" | "trustedProxyHops"
>;

/**
 * The rate limits of aopd's public routes (AOPP callback, portal API). Threat: anyone who holds a
 * link, or none, replays submissions to burn CPU (a signature check, an xpub search) or floods the
 * database with look-ups. Every request counts against its client address, and, when it names a
 * credential, against that credential too, whichever route it takes: a client cannot escape one
 * limit by spreading over routes or credentials. Reads and submissions have budgets of their own,
 * so that a customer reloading the page (two reads a load) is never locked out of submitting, and
 * a flood of reads cannot buy submissions. Kept per replica in memory (bounded); the failed-attempt
 * cap in the database is the bound that holds across replicas.
 */
export class PublicRouteLimits {
  readonly #limiters: Record<PublicRequestUse, { perClient: TokenBucketLimiter | undefined; perCredential: TokenBucketLimiter | undefined }>;
  readonly #trustedProxyHops: number;

  constructor(config: LimitConfig) {
    const perMinute = (requests: number) =>
      requests > 0 ? new TokenBucketLimiter({ capacity: requests, refillPerSecond: requests / 60, maxKeys: config.rateLimitMaxKeys }) : undefined;
    this.#limiters = {
      submission: { perClient: perMinute(config.rateLimitPerClient), perCredential: perMinute(config.rateLimitPerCredential) },
      read: { perClient: perMinute(config.readRateLimitPerClient), perCredential: perMinute(config.readRateLimitPerCredential) },
    };
    this.#trustedProxyHops = config.trustedProxyHops;
  }

  /** Throws `rate_limited` (with the seconds to wait) when either limit of this use is spent. */
  check(request: IncomingMessage, credential: string | undefined, use: PublicRequestUse): void {
    const limiters = this.#limiters[use];
    const client = limiters.perClient?.take(clientAddress(request, this.#trustedProxyHops));
    if (client && !client.allowed) throw limited(client.retryAfterSeconds, "this client address", use);
    if (credential === undefined) return;
    const perCredential = limiters.perCredential?.take(credential);
    if (perCredential && !perCredential.allowed) throw limited(perCredential.retryAfterSeconds, "this link", use);
  }
}

/** A GET or HEAD only reads; every other method submits. */
export function useOf(request: IncomingMessage): PublicRequestUse {
  return request.method === "GET" || request.method === "HEAD" ? "read" : "submission";
}

function limited(retryAfterSeconds: number, whose: string, use: PublicRequestUse): PublicRouteError {
  const what = use === "read" ? "reads" : "submissions";
  return new PublicRouteError("rate_limited", `Too many ${what} for ${whose}; try again in ${retryAfterSeconds} seconds.`, undefined, retryAfterSeconds);
}
