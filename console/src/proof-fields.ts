/** The fields every screen reads of a proof, per kind: one fragment so the table, the detail and live events agree. */
export const proofFields = `
  __typename id address customerId asset status comment createdAt updatedAt dueAt eventCursor
  screening { status list listVersion screenedAt matchedEntry { asset address sdnUid sdnName } matchedForm matchedAddress }
  ... on AopdSignatureProof { format message signature xpub signatureScheme contractCheckBlockHeight leftForReview assessment }
  ... on AopdSatoshiProof { amount senderAddress depositAddress txId assessment blockHeight confirmations failureReason blockHash amountReceived amountReceivedUnits transactionSenders }
  ... on AopdMediaProof { contentType byteSize sha256 uploadedAt assessment mediaUrl }
`;

/** One entry of a decided kind's decision history (`AopdDecision`), as the detail shows it. */
export interface ProofDecision {
  action: "DECIDED" | "REOPENED" | "PROPOSED" | "CONFIRMED" | "REJECTED" | "REOPEN_PROPOSED";
  decidedAt: string;
  outcome: string | null;
  reason: string | null;
  reasonText: string | null;
  comment: string | null;
  decider: { subject: string; username: string | null; client: string; system: boolean };
}

const decisionSelection = "action decidedAt outcome reason reasonText comment decider { subject username client system }";

/** What the detail reads beside `proofFields`: the decision in force, the proposal awaiting a second officer, and the whole history. */
export const decisionFields = `
  ... on AopdSignatureProof { decision { ${decisionSelection} } proposal { ${decisionSelection} } decisions { ${decisionSelection} } }
  ... on AopdSatoshiProof { decision { ${decisionSelection} } proposal { ${decisionSelection} } decisions { ${decisionSelection} } }
  ... on AopdMediaProof { decision { ${decisionSelection} } proposal { ${decisionSelection} } decisions { ${decisionSelection} } }
`;

export type ScreeningStatus = "CLEAR" | "LISTED" | "NOT_SCREENED";

/** The proof's address checked against the sanctions list (`AopdScreening`, docs/screening.md). */
export interface ProofScreening {
  status: ScreeningStatus;
  list: string | null;
  listVersion: string | null;
  screenedAt: string | null;
  matchedEntry: { asset: string; address: string; sdnUid: string | null; sdnName: string | null } | null;
  /** Which of the proof's addresses matched: the proven one or a sibling its key controls (`AopdScreenedAddressForm`). */
  matchedForm: string | null;
  matchedAddress: string | null;
}

export type ProofKind = "signature" | "satoshi" | "media";

export interface Proof {
  __typename: "AopdSignatureProof" | "AopdSatoshiProof" | "AopdMediaProof";
  id: string;
  address: string | null;
  customerId: string;
  asset: string;
  status: string;
  comment: string | null;
  createdAt: string;
  updatedAt: string;
  dueAt: string | null;
  eventCursor: string | null;
  screening: ProofScreening;
  format?: string | null;
  message?: string;
  signature?: string | null;
  xpub?: string | null;
  signatureScheme?: string | null;
  contractCheckBlockHeight?: number | null;
  /** Why its signature left a signature proof to an officer (`SCREENING`); null when the signature decided it. */
  leftForReview?: "SCREENING" | null;
  amount?: string;
  senderAddress?: string;
  depositAddress?: string;
  txId?: string | null;
  assessment?: string | null;
  blockHeight?: number | null;
  confirmations?: number | null;
  failureReason?: string | null;
  blockHash?: string | null;
  amountReceived?: string | null;
  amountReceivedUnits?: string | null;
  transactionSenders?: string[] | null;
  contentType?: string | null;
  byteSize?: number | null;
  sha256?: string | null;
  uploadedAt?: string | null;
  mediaUrl?: string;
  decision?: ProofDecision | null;
  proposal?: ProofDecision | null;
  decisions?: ProofDecision[];
}

export function kindOf(proof: Pick<Proof, "__typename">): ProofKind {
  return proof.__typename === "AopdSatoshiProof" ? "satoshi" : proof.__typename === "AopdMediaProof" ? "media" : "signature";
}

export interface Asset {
  asset: string;
  name: string;
  symbol: string | null;
  network: string | null;
  /** The token standard (ERC-20, TRC-20, ...); null for a network's native asset. */
  standard: string | null;
  /** How its addresses are written (bitcoin, ethereum, solana, tron, lightning), when known. */
  addressFamily: string | null;
  decimals: number | null;
}
