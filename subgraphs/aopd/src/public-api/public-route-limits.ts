import type { IncomingMessage } from "node:http";
import { clientAddress, TokenBucketLimiter } from "@compliance-graph/process-shell";
import type { AopdConfig } from "../aopd-config.js";
import { PublicRouteError } from "./public-route-error.js";

/**
 * The rate limits of aopd's public routes (AOPP callback, portal API). Threat: anyone who holds a
 * link, or none, replays submissions to burn CPU (a signature check, an xpub search) or floods the
 * database with look-ups. Every request counts against its client address, and, when it names a
 * credential, against that credential too, whichever route it takes: a client cannot escape one
 * limit by spreading over routes or credentials. Kept per replica in memory (bounded); the
 * failed-attempt cap in the database is the bound that holds across replicas.
 */
export class PublicRouteLimits {
  readonly #perClient: TokenBucketLimiter | undefined;
  readonly #perCredential: TokenBucketLimiter | undefined;
  readonly #trustedProxyHops: number;

  constructor(config: Pick<AopdConfig, "rateLimitPerClient" | "rateLimitPerCredential" | "rateLimitMaxKeys" | "trustedProxyHops">) {
    const perMinute = (requests: number) =>
      requests > 0 ? new TokenBucketLimiter({ capacity: requests, refillPerSecond: requests / 60, maxKeys: config.rateLimitMaxKeys }) : undefined;
    this.#perClient = perMinute(config.rateLimitPerClient);
    this.#perCredential = perMinute(config.rateLimitPerCredential);
    this.#trustedProxyHops = config.trustedProxyHops;
  }

  /** Throws `rate_limited` (with the seconds to wait) when either limit is spent. */
  check(request: IncomingMessage, credential: string | undefined): void {
    const client = this.#perClient?.take(clientAddress(request, this.#trustedProxyHops));
    if (client && !client.allowed) throw limited(client.retryAfterSeconds, "this client address");
    if (credential === undefined) return;
    const perCredential = this.#perCredential?.take(credential);
    if (perCredential && !perCredential.allowed) throw limited(perCredential.retryAfterSeconds, "this link");
  }
}

function limited(retryAfterSeconds: number, whose: string): PublicRouteError {
  return new PublicRouteError("rate_limited", `Too many requests for ${whose}; try again in ${retryAfterSeconds} seconds.`, undefined, retryAfterSeconds);
}
