import type { DtiAsset } from "@compliance-graph/dti-assets";
import { UserInputError } from "@compliance-graph/errors";
import { verifiableFamilies, type AssetFamily } from "../../ownership/index.js";

/**
 * Why a Lightning asset cannot be proven by signature. LND's `signmessage` signs with the node's
 * identity key, and `verifymessage` recovers that key: it proves who runs a node, not who controls
 * an on-chain address or any funds (a node's channels and wallet use other keys, and an invoice
 * names no address). A compliance team asking "does the customer control this address?" would get
 * an answer to another question, so these assets are refused rather than half-supported.
 */
const lightningRefusal =
  "a Lightning node's signmessage proves control of the node's identity key, not of an address or funds, so it cannot prove control of an address; " +
  "request the proof for the on-chain asset (Bitcoin, DTI4H95J0R2X) or use a Satoshi proof.";

/** The address family whose signature scheme proves control of the asset's addresses; refuses the others. */
export function signatureProofFamily(field: string, asset: DtiAsset): AssetFamily {
  const family = asset.addressFamily;
  if (family !== null && (verifiableFamilies as readonly string[]).includes(family)) return family as AssetFamily;
  if (family === "lightning") throw new UserInputError(field, `${asset.name} cannot be proven by signature: ${lightningRefusal}`);
  throw new UserInputError(
    field,
    `${asset.name} has no signature scheme here; signature proofs support Bitcoin, EVM (Ethereum, BSC, Polygon), Solana and TRON assets and their tokens.`,
  );
}
