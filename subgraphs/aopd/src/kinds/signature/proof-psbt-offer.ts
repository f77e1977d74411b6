import { base64 } from "@scure/base";
import type { AopdConfig } from "../../aopd-config.js";
import type { ProofRow } from "../../database/database-schema.js";
import { parseBitcoinAddress, proofPsbt } from "../../ownership/index.js";

/**
 * The PSBT the portal offers a pending Bitcoin signature proof (base64), for wallets that sign
 * transactions but not messages, multisig vaults' coordinators above all: BIP-322's `to_sign` of
 * the proof's address and message (`ownership/verify-psbt-proof.ts`). Null where it cannot apply:
 * another chain, an address not yet named, or a P2PKH address (no witness to sign; such wallets
 * sign messages).
 */
export function proofPsbtOffer(config: Pick<AopdConfig, "assets">, row: Pick<ProofRow, "asset" | "address" | "message" | "status">): string | null {
  if (row.status !== "PENDING" || row.address === null || row.message === null) return null;
  if (config.assets.get(row.asset)?.addressFamily !== "bitcoin") return null;
  const address = parseBitcoinAddress(row.address);
  if (!address.ok || address.format === "P2PKH") return null;
  return base64.encode(proofPsbt(address, row.message));
}
