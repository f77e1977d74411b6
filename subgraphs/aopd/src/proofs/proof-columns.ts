import type { ProofTable } from "../database/database-schema.js";
import { providerScreeningColumns, screeningColumns } from "../screening/screening.js";
import type { OrderTerm } from "./proof-sort.js";

export type ProofColumn = keyof ProofTable & string;

/**
 * The columns each field of the three proof types reads (`toProof` and the field resolvers).
 * `cursor` reads the sort columns, which a page always selects; `eventCursor` and `portalUrl` are
 * null on a page. A field missing here (one added to the schema later) selects every column.
 */
const columnsOfField: Readonly<Record<string, readonly ProofColumn[]>> = {
  __typename: ["kind"],
  id: ["id"],
  createdAt: ["created_at"],
  updatedAt: ["updated_at"],
  address: ["address"],
  customerId: ["customer_id"],
  asset: ["asset"],
  comment: ["comment"],
  status: ["status"],
  dueAt: ["due_at"],
  cursor: [],
  eventCursor: [],
  format: ["format"],
  message: ["message"],
  signature: ["signature"],
  xpub: ["xpub"],
  amount: ["amount"],
  senderAddress: ["address"],
  depositAddress: ["deposit_address"],
  txId: ["tx_id"],
  assessment: ["assessment"],
  blockHeight: ["block_height"],
  confirmations: ["confirmations"],
  failureReason: ["failure_reason"],
  blockHash: ["block_hash"],
  amountReceived: ["amount_received"],
  amountReceivedUnits: ["amount_received_units"],
  transactionSenders: ["transaction_senders"],
  portalUrl: [],
  contentType: ["media_content_type"],
  byteSize: ["media_byte_size"],
  sha256: ["media_sha256"],
  uploadedAt: ["media_uploaded_at"],
  mediaUrl: ["id"],
  decision: [
    "decision_id",
    "decision_action",
    "decided_at",
    "assessment",
    "decision_reason",
    "decision_reason_text",
    "decision_comment",
    "decider_subject",
    "decider_client",
    "decider_username",
    "decider_system",
  ],
  decisions: ["id"],
  proposal: ["proposal_id"],
  signatureScheme: ["signature_scheme"],
  legalHold: ["legal_hold_since", "legal_hold_reason"],
  history: ["id"],
  contractCheckBlockHeight: ["contract_check_block_height"],
  signatureScript: ["signature_script"],
  leftForReview: ["left_for_review"],
  screening: screeningColumns,
  providerScreening: providerScreeningColumns,
};

/**
 * The columns a page must read to answer `fields` (the proof fields an operation selects, of any
 * proof type) in the order `terms`: always the id and the kind (the proof's type), and the sort
 * columns (its cursor). Undefined when a field is not known here: then the page reads every column.
 *
 * Why: a compliance screen shows eight of the proof's thirty columns; reading, sending and parsing
 * the rest (the message and signature texts, three more timestamps) is most of a page's cost after
 * the index lookup.
 */
export function proofColumnsFor(fields: Iterable<string>, terms: readonly OrderTerm[]): ProofColumn[] | undefined {
  const columns = new Set<ProofColumn>(["id", "kind"]);
  for (const term of terms) columns.add(term.column);
  for (const field of fields) {
    const needed = columnsOfField[field];
    if (!needed) return undefined;
    for (const column of needed) columns.add(column);
  }
  return [...columns];
}
