/**
 * `INSECURE_DEVELOPMENT_IDENTITY` of a subgraph deployable: `true` lets it start without a verifier
 * of the gateway's identity, serving every caller every role (see `createIdentityDoor`). Unset or
 * `false`: off. Anything else stops the start-up with the values allowed, rather than guess which
 * way a typo was meant.
 */
export function insecureDevelopmentIdentityFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.INSECURE_DEVELOPMENT_IDENTITY;
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  throw new Error(`INSECURE_DEVELOPMENT_IDENTITY must be "true" or "false" (or unset); got ${JSON.stringify(raw)}.`);
}
