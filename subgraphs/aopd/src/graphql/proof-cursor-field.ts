import { encodeProofCursor } from "../proofs/proof-cursor.js";
import { proofOrder, type OrderTerm } from "../proofs/proof-sort.js";
import type { Proof } from "../proofs/proof.js";

/** The order each listed proof was read in; proofs that leave the request are collected with it. */
const listOrder = new WeakMap<Proof, readonly OrderTerm[]>();

/** Remembers the order a page was read in, for the `cursor` of its proofs. */
export function rememberListOrder(proofs: readonly Proof[], terms: readonly OrderTerm[]): void {
  for (const proof of proofs) listOrder.set(proof, terms);
}

/** `AopdProof.cursor`: the proof's position in its list, or in the default order outside one. */
export function proofCursorField(proof: Proof): string {
  return encodeProofCursor(proof, listOrder.get(proof) ?? proofOrder(undefined));
}
