import { checkAddressFormat, type AssetFamily } from "./address-matches-format.js";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";
import type { BitcoinAddressFormat, BitcoinNetwork } from "./parse-bitcoin-address.js";
import type { ScriptSpend } from "./verify-bip322-script.js";
import { verifyBitcoinMessage, type BitcoinSignatureScheme } from "./verify-bitcoin-message.js";
import { verifyEthereumMessage } from "./verify-ethereum-message.js";
import { verifySolanaMessage } from "./verify-solana-message.js";
import { verifyTronMessage } from "./verify-tron-message.js";

/**
 * The one door through which AOPP ingestion checks a submitted proof of control: the address must
 * be valid, of the format and network the proof request asked for, and the signature must be the
 * address key's signature over exactly the requested message. It never throws and never lets a
 * library's message through; every refusal is a stable code and a sentence for the client.
 */

export type OwnershipSignatureScheme = BitcoinSignatureScheme | "eip191" | "ed25519" | "tip191";

type SingleFormatVerifier = (input: { address: string; message: string; signature: string }) => { ok: true; signerKey?: Uint8Array } | OwnershipFailure;

/** The schemes of the families with one address format, each verifying the address it parses. */
const singleFormatSchemes: Record<"ethereum" | "solana" | "tron", { scheme: OwnershipSignatureScheme; verify: SingleFormatVerifier }> = {
  ethereum: { scheme: "eip191", verify: verifyEthereumMessage },
  solana: { scheme: "ed25519", verify: verifySolanaMessage },
  tron: { scheme: "tip191", verify: verifyTronMessage },
};

export interface OwnershipSignatureInput {
  assetFamily: AssetFamily;
  address: string;
  /** The exact text the proof request asked the user to sign. */
  message: string;
  /**
   * Bitcoin: base64 (legacy or BIP-322 simple). Ethereum and TRON: 65 bytes as 0x-hex or base64.
   * Solana: 64 bytes as base58 or base64.
   */
  signature: string;
  /** null or absent: any format of the asset family. */
  expectedFormat?: BitcoinAddressFormat | null;
  /** Bitcoin only; null or absent: any network. */
  network?: BitcoinNetwork | null;
}

export type OwnershipVerification =
  | {
      readonly ok: true;
      /** The address format; null for the families with one format (all but Bitcoin). */
      readonly format: BitcoinAddressFormat | null;
      readonly scheme: OwnershipSignatureScheme;
      /** The script spent and who signed, for a signature over a multisig script or Taproot leaf. */
      readonly script?: ScriptSpend;
      /**
       * The signer's public key (SEC1: 33 bytes compressed, 65 uncompressed) where the signature
       * recovers it (a legacy Bitcoin message signature, EIP-191, TIP-191) or carries it (a BIP-322
       * P2WPKH or P2SH-P2WPKH signature, or the proof's PSBT signed by such a key); absent for
       * Taproot, scripts (a vault's PSBT among them) and Solana. Handed on so that `keyAddressesOf`
       * names the key's other addresses without recovering it a second time.
       */
      readonly signerKey?: Uint8Array;
    }
  | OwnershipFailure;

export function verifyOwnershipSignature(input: OwnershipSignatureInput): OwnershipVerification {
  try {
    const address = checkAddressFormat({
      assetFamily: input.assetFamily,
      address: input.address,
      format: input.expectedFormat,
      network: input.network,
    });
    if (!address.ok) return address;
    if (typeof input.message !== "string") {
      return ownershipFailure("MALFORMED_SIGNATURE", "The signed message is missing.");
    }
    if (input.assetFamily !== "bitcoin") {
      const { scheme, verify } = singleFormatSchemes[input.assetFamily];
      const result = verify(input);
      if (!result.ok) return result;
      return result.signerKey ? { ok: true, format: null, scheme, signerKey: result.signerKey } : { ok: true, format: null, scheme };
    }
    const result = verifyBitcoinMessage(input);
    if (!result.ok) return result;
    return {
      ok: true,
      format: address.format,
      scheme: result.scheme,
      ...(result.script ? { script: result.script } : {}),
      ...(result.signerKey ? { signerKey: result.signerKey } : {}),
    };
  } catch {
    // Fail closed. Nothing above is expected to throw, and whatever did must not reach a client.
    return ownershipFailure("SIGNATURE_MISMATCH", "The signature could not be verified.");
  }
}
