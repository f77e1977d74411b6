/** The proof as `GET /portal/api/proof/<credential>` shows it (subgraphs/aopd/src/public-api/public-proof-view.ts). */
export type ProofStatus = "PENDING" | "SUBMITTED" | "VERIFIED" | "FAILED" | "EXPIRED";

export interface PublicProofView {
  id: string;
  kind: "signature" | "satoshi" | "media";
  status: ProofStatus;
  asset: { code: string; name: string; symbol: string | null; network: string | null; addressFamily: string | null; decimals: number | null };
  createdAt: string;
  updatedAt: string;
  dueAt: string | null;
  address: string | null;
  signature: { format: string | null; message: string; xpubRequired: boolean; aoppUri: string | null } | null;
  satoshi: { amount: string; amountInUnits: string | null; depositAddress: string; paymentUri: string | null; txId: string | null } | null;
  media: {
    accepts: { contentTypes: string[]; maxImageBytes: number; maxVideoBytes: number };
    uploaded: { contentType: string; byteSize: number; sha256: string; uploadedAt: string } | null;
  } | null;
}
