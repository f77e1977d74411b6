export type PublicProofKind = "signature" | "satoshi" | "media";
export type PublicProofStatus = "PENDING" | "SUBMITTED" | "VERIFIED" | "FAILED" | "EXPIRED";
export type PublicAddressFormat = "ANY" | "STANDARD" | "P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR";

/**
 * The proof as `GET /portal/api/proof/<credential>` and the portal's event stream show it to the
 * holder of its one-time credential: what is asked of the customer and where the proof stands.
 * aopd builds it (http/public-proof-view.ts); the portal page renders it.
 */
export interface PublicProofView {
  id: string;
  kind: PublicProofKind;
  status: PublicProofStatus;
  /**
   * Whether no further change can follow: an expired proof, or a decided one of a kind no person
   * decides. A decision an officer made can be reopened, so a page showing it keeps listening.
   */
  settled: boolean;
  asset: { code: string; name: string; symbol: string | null; network: string | null; addressFamily: string | null; decimals: number | null };
  createdAt: string;
  updatedAt: string;
  dueAt: string | null;
  address: string | null;
  /**
   * `psbt`: while pending, for a Bitcoin address other than P2PKH, the PSBT (base64) a multisig
   * vault's coordinator or any PSBT wallet signs instead of the message (BIP-322's `to_sign`).
   * `signInMessage`: once the proof names its address, the EIP-4361 (EVM) or CAIP-122 message that
   * names this portal, the chain and a single-use nonce, which a wallet may sign instead of `message`.
   */
  signature: {
    format: PublicAddressFormat | null;
    message: string;
    xpubRequired: boolean;
    aoppUri: string | null;
    psbt: string | null;
    signInMessage: string | null;
  } | null;
  satoshi: { amount: string; amountInUnits: string | null; depositAddress: string; paymentUri: string | null; txId: string | null } | null;
  /** What the portal needs to take the file (the accepted types and sizes), and the file once uploaded. */
  media: {
    accepts: { contentTypes: string[]; maxImageBytes: number; maxVideoBytes: number };
    uploaded: { contentType: string; byteSize: number; sha256: string; uploadedAt: string } | null;
  } | null;
}
