import type { Identity } from "./identity.js";

/**
 * One string per identity, for the maps that share work between requests of the same caller: the
 * gateway's subgraph socket pool and shared subscriptions, and the internal token minter's cache.
 * Roles are a set, so their order does not count: two tokens that grant the same roles in another
 * order are the same caller, and must neither open a second socket nor be signed a second time.
 * Every field of `Identity` is part of the key, so two callers that differ in anything a subgraph
 * can see never share a socket, a subscription or a token.
 */
export function identityKey(identity: Identity): string {
  // The gateway's identities come sorted (`identityFromClaims`); only others are copied and sorted.
  const { roles } = identity;
  const sorted = roles.every((role, index) => index === 0 || (roles[index - 1] as string) <= role) ? roles : [...roles].sort();
  return JSON.stringify([identity.subject, identity.client, identity.username ?? null, sorted]);
}
