import type { Identity } from "@compliance-graph/identity";

/**
 * Who made a decision, as the internal identity token named the caller: its subject (for a
 * client-credentials token, the client's service account), the OAuth client, and the username when
 * the token carries one. `system` marks decisions aopd makes itself; their subject is
 * `system:<part>`, a name no identity provider issues to a person in this deployment's realm.
 */
export interface Decider {
  subject: string;
  client: string;
  username: string | null;
  system: boolean;
}

export function deciderOf(identity: Identity): Decider {
  return { subject: identity.subject, client: identity.client, username: identity.username ?? null, system: false };
}

/** The chain watcher, which decides Satoshi proofs from what it finds on chain. */
export const chainWatcherDecider: Decider = { subject: "system:chain-watcher", client: "aopd", username: "chain watcher", system: true };

/**
 * Signature verification, which decides signature proofs: a valid signature is the decision (no
 * person is asked). Named where a decision of a signature proof is stated (receipts).
 */
export const signatureVerificationDecider: Decider = {
  subject: "system:signature-verification",
  client: "aopd",
  username: "signature verification",
  system: true,
};
