import type { IncomingMessage } from "node:http";
import { RateLimitedError } from "@compliance-graph/errors";
import { clientAddress, TokenBucketLimiter } from "@compliance-graph/process-shell";

/** Bounds how often one client address may send a body to a public subgraph route; refused with the seconds to wait. */
export type PublicSubmissionLimit = (request: IncomingMessage) => RateLimitedError | undefined;

/**
 * A public route that takes a body (a witness's cosignature) is open to anyone without a token, so
 * neither the door nor the client quotas bound it: each client address gets `perMinute` such
 * requests (a burst of as many, refilled over a minute), per replica, in bounded memory. Reads of
 * public routes are not counted here: they are the subgraph's documents, cacheable, and the
 * subgraph limits its own work.
 */
export function publicSubmissionLimit(options: { perMinute: number; trustedProxyHops: number }): PublicSubmissionLimit {
  if (!Number.isSafeInteger(options.perMinute) || options.perMinute < 1)
    throw new RangeError(`GATEWAY_PUBLIC_SUBMISSIONS_PER_MINUTE must be a whole number of at least 1; got ${options.perMinute}.`);
  const limiter = new TokenBucketLimiter({ capacity: options.perMinute, refillPerSecond: options.perMinute / 60, maxKeys: 100_000 });
  return (request) => {
    const decision = limiter.take(clientAddress(request, options.trustedProxyHops));
    if (decision.allowed) return undefined;
    return new RateLimitedError(
      "public submissions per address",
      options.perMinute,
      decision.retryAfterSeconds,
      `Too many submissions to public routes from this address (at most ${options.perMinute} a minute); try again in ${decision.retryAfterSeconds} seconds.`,
    );
  };
}
