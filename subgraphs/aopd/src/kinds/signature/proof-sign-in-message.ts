import type { Kysely } from "kysely";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { SubmissionRefusal } from "../../proofs/proof-refusal.js";
import { formatSignInMessage, parseSignInMessage, signInChainOf, signInOrigin } from "./sign-in-message.js";

/** The statement of every proof's sign-in message: SIWE allows no newline in it, so it is not the (free-form) AOPP message. */
const statement = "I confirm that I control this address.";
/** How far a wallet's clock may run ahead of ours when it writes its own Issued At. */
const clockSkewMs = 5 * 60_000;

type SignInProof = Pick<ProofRow, "asset" | "address" | "signin_nonce" | "created_at" | "due_at">;

/**
 * The sign-in message the portal offers for a proof: this deployment's portal as domain and URI,
 * the network's chain id, the proof's nonce, issued when the proof was requested and expiring when
 * it is due. Built from the row, so every view shows the same message. Null where it cannot name
 * everything: a proof with no address yet, no nonce (requested before migration 0025), no due time,
 * or a network with no known chain id.
 */
export function proofSignInMessage(config: Pick<AopdConfig, "assets" | "portalUrl">, proof: SignInProof): string | null {
  const chain = signInChainOf(config.assets.get(proof.asset)?.network ?? null);
  if (!chain || proof.address === null || proof.signin_nonce === null || proof.due_at === null) return null;
  return formatSignInMessage(
    {
      ...signInOrigin(config),
      address: proof.address,
      statement,
      chainId: chain.chainId,
      nonce: proof.signin_nonce,
      issuedAt: proof.created_at.toISOString(),
      expirationTime: proof.due_at.toISOString(),
    },
    chain.name,
  );
}

/**
 * Checks a sign-in message a customer signed against the proof it was submitted for: it must name
 * this deployment's domain and URI, the asset's chain, the address, and this proof's nonce, not
 * be issued in the future and not be expired. The nonce is single-use: one already used by a
 * verified signature is refused on every other proof. Returns the address the message names, or
 * throws the refusal, which says which field was wrong and what it must be.
 */
export async function checkSignInMessage(
  db: Kysely<AopdDatabase>,
  config: Pick<AopdConfig, "assets" | "portalUrl">,
  proof: Pick<ProofRow, "id" | "asset" | "address" | "signin_nonce">,
  message: string,
  sameAddress: (a: string, b: string) => boolean,
): Promise<string> {
  const parsed = parseSignInMessage(message);
  if (!parsed.ok) throw new SubmissionRefusal("wrong_message", parsed.reason);
  const { fields } = parsed;
  const refuse = (reason: string) => new SubmissionRefusal("wrong_message", `${reason} Sign the message the portal shows.`);
  const origin = signInOrigin(config);
  if (fields.domain !== origin.domain)
    throw refuse(`The sign-in message was requested by ${fields.domain}, not by ${origin.domain}: it may have been relayed from another site.`);
  if (fields.uri !== origin.uri) throw refuse(`The sign-in message's URI is ${fields.uri}, not ${origin.uri}.`);
  const chain = signInChainOf(config.assets.get(proof.asset)?.network ?? null);
  if (!chain) throw refuse("The proof's network has no sign-in message.");
  if (fields.chainId !== chain.chainId) throw refuse(`The sign-in message's Chain ID is ${fields.chainId}; this proof's chain is ${chain.chainId}.`);
  if (proof.address !== null && !sameAddress(fields.address, proof.address)) throw refuse("The sign-in message names another address than the proof's.");
  if (fields.nonce !== proof.signin_nonce) {
    const owner = await db.selectFrom("aopd_proof").select(["id", "signed_message"]).where("signin_nonce", "=", fields.nonce).executeTakeFirst();
    if (owner?.signed_message) throw refuse(`The sign-in message's nonce ${fields.nonce} was already used by a verified signature; a nonce is accepted once.`);
    throw refuse(`The sign-in message's nonce ${fields.nonce} is not this proof's.`);
  }
  const now = Date.now();
  const issuedAt = Date.parse(fields.issuedAt);
  const expiresAt = Date.parse(fields.expirationTime);
  if (Number.isNaN(issuedAt) || Number.isNaN(expiresAt)) throw refuse("The sign-in message's Issued At and Expiration Time must be RFC 3339 times.");
  if (issuedAt > now + clockSkewMs) throw refuse(`The sign-in message is issued at ${fields.issuedAt}, in the future.`);
  if (expiresAt <= now) throw refuse(`The sign-in message expired at ${fields.expirationTime}.`);
  if (fields.notBefore !== undefined && !(Date.parse(fields.notBefore) <= now + clockSkewMs))
    throw refuse(`The sign-in message is not valid before ${fields.notBefore}.`);
  return fields.address;
}
