import { toAuditEntry } from "../audit/audit-entry.js";
import { auditEntryInclusion } from "../audit/audit-entry-inclusion.js";
import { auditConsistencyProof, auditTreeRoot } from "../audit/audit-tree-store.js";
import { selectAuditTrailPage, selectProofHistory, type AuditTrailFilter, type AuditTrailPageInput } from "../audit/audit-trail-query.js";
import { exportAuditTrailAsXlsx } from "../audit/export-audit-trail-as-xlsx.js";
import { recordExport } from "../audit/record-export.js";
import { originOf } from "./origin-of.js";
import { NotFoundError, UserInputError } from "@compliance-graph/errors";
import { issueProofReceipt } from "../receipts/issue-proof-receipt.js";
import { receiptJwksPath } from "../receipts/receipt-signer.js";
import { hasWildcard } from "@compliance-graph/filter";
import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/index.js";
import { countProofs, findLatestProof, findProofPage, findProofsByIds } from "../proofs/proof-query.js";
import { proofOrder, type ProofSortInput } from "../proofs/proof-sort.js";
import { screeningOfProof, toProof, type MediaProof, type Proof, type SatoshiProof, type SignatureProof } from "../proofs/proof.js";
import type { Decision } from "../proofs/decision.js";
import { exportProofsAsXlsx } from "../export/export-proofs-as-xlsx.js";
import { aopdProofsSubscription } from "./aopd-proofs-subscription.js";
import { configurationOf } from "./configuration-of.js";
import { checkAddressBeforeRequest } from "../screening/check-address-before-request.js";
import { readProofEventPage, type ProofEventPageInput } from "../events/read-proof-event-page.js";
import type { AopdContext } from "./aopd-context.js";
import { proofCursorField, rememberListOrder } from "./proof-cursor-field.js";
import { proofColumnsFor } from "../proofs/proof-columns.js";
import { selectedFieldNames } from "./selected-field-names.js";
import type { GraphQLResolveInfo } from "graphql";
import { decisionHistoryLoaderOf } from "../decisions/decision-history-loader.js";

interface PageArgs {
  offset: number;
  limit: number;
  filter?: unknown;
  sortOrder?: ProofSortInput[] | null;
  after?: string | null;
}

/** The filters the deprecated queries stand for: each returns what its replacement returns. */
const byIdPattern = (id: string) => ({ is: { any: { id: { ilike: id } } } });
const byAddressPattern = (address: string) => ({ is: { any: { address: { ilike: address } } } });
const byXpubPattern = (xpub: string) => ({ is: { signature: { xpub: { xpub: { ilike: xpub } } } } });
const byCustomerPattern = (customerId: string) => ({ is: { any: { customerId: { ilike: customerId } } } });

/**
 * `proofAsXlsx` is documented as one proof, but its id was an `ilike` pattern, so `"%"` exported
 * the whole table past the per-caller export limits of a one-proof call. The id may still differ
 * in case (as the replacement's `ilike` allows) but may hold no wildcard, and the export is capped
 * at one row.
 */
function exactIdFilter(id: string) {
  if (hasWildcard(id))
    throw new UserInputError("id", "must be the id of one proof, without the wildcards % and _; use proofsAsXlsx with a filter to export several.");
  return byIdPattern(id);
}

/** A page of proofs, reading only the columns the operation's selection needs (see `proofColumnsFor`). */
async function page(context: AopdContext, args: PageArgs, info: GraphQLResolveInfo): Promise<Proof[]> {
  const terms = proofOrder(args.sortOrder);
  const fields = selectedFieldNames(info);
  const rows = await findProofPage(context.db, args, context.limits, proofColumnsFor(fields, terms), terms);
  const proofs = rows.map(toProof);
  if (fields.has("cursor")) rememberListOrder(proofs, terms);
  return proofs;
}

/** The XLSX export of `proofsAsXlsx` and the deprecated `proofAsXlsx`: the same workbook for the same filter. */
async function xlsx(context: AopdContext, filter: unknown, emptyError?: Error, maxRows = context.config.maxExportRows): Promise<Buffer> {
  const release = context.exportSlots.acquire(context.identity.subject);
  const started = performance.now();
  let exported;
  try {
    exported = await exportProofsAsXlsx(context.db, {
      filter,
      limits: context.limits,
      maxRows,
      assetNames: context.config.assets.names,
      emptyError,
      pool: context.pool,
      statementTimeoutMs: context.config.database.longStatementTimeoutMs,
    });
  } finally {
    release();
  }
  const { file, rows } = exported;
  await recordExport(context.db, originOf(context), "PROOFS_EXPORTED", "proofsAsXlsx", filter, rows);
  context.metrics.exportRows.inc(rows);
  context.metrics.exportBytes.inc(file.length);
  context.logger.info({ rows, bytes: file.length, ms: Math.round(performance.now() - started) }, "proofs exported as XLSX");
  return file;
}

async function latest(context: AopdContext, filter: unknown): Promise<Proof | null> {
  const row = await findLatestProof(context.db, filter, context.limits);
  return row ? toProof(row) : null;
}

export const aopdResolvers: GraphQLResolverMap<AopdContext> = {
  Query: {
    aopd: () => ({}),
  },
  Aopd: {
    configuration: (_parent, _args, context: AopdContext) => configurationOf(context.config),
    proof: async (_parent, { id }: { id: string }, context: AopdContext, info) => {
      const [proof] = await page(context, { offset: 0, limit: 1, filter: byIdPattern(id) }, info);
      if (!proof) throw new NotFoundError("The proof", id);
      return proof;
    },
    proofForAddress: (_parent, { address }: { address: string }, context: AopdContext) => latest(context, byAddressPattern(address)),
    proofForXpub: (_parent, { xpub }: { xpub: string }, context: AopdContext) => latest(context, byXpubPattern(xpub)),
    proofs: (_parent, args: PageArgs, context: AopdContext, info) => page(context, args, info),
    proofsForCustomer: (_parent, args: { customerId: string; offset: number; limit: number }, context: AopdContext, info) =>
      page(context, { offset: args.offset, limit: args.limit, filter: byCustomerPattern(args.customerId) }, info),
    proofsAsXlsx: (_parent, { filter }: { filter?: unknown }, context: AopdContext) => xlsx(context, filter),
    proofAsXlsx: (_parent, { id }: { id: string }, context: AopdContext) => xlsx(context, exactIdFilter(id), new NotFoundError("The proof", id), 1),
    screenAddress: (_parent, { asset, address }: { asset: string; address: string }, context: AopdContext) =>
      checkAddressBeforeRequest(context.db, context.config.screening.policy, asset, address),
    proofsCount: (_parent, { filter }: { filter?: unknown }, context: AopdContext) => countProofs(context.db, filter, context.limits),
    proofReceipt: async (_parent, { id }: { id: string }, context: AopdContext) => {
      const receipt = await issueProofReceipt(context.db, context.config.assets, context.receiptSigner, context.config.receipts, id);
      return { ...receipt, jwksPath: receiptJwksPath, issuer: context.receiptSigner.issuer, statement: Buffer.from(JSON.stringify(receipt.statement)) };
    },
    proofEvents: (_parent, args: ProofEventPageInput, context: AopdContext) => readProofEventPage(context.db, args, context.limits),
    auditTrail: async (_parent, args: AuditTrailPageInput, context: AopdContext) => {
      const page = await selectAuditTrailPage(context.db, args);
      return { ...page, entries: page.entries.map(toAuditEntry) };
    },
    auditInclusionProof: (_parent, { seq, treeSize }: { seq: string; treeSize?: number | null }, context: AopdContext) =>
      auditEntryInclusion(context.db, seq, treeSize ?? undefined),
    auditConsistencyProof: async (_parent, { from, to }: { from: number; to: number }, context: AopdContext) => {
      const proof = await auditConsistencyProof(context.db, from, to);
      const [fromRoot, toRoot] = await Promise.all([auditTreeRoot(context.db, from), auditTreeRoot(context.db, to)]);
      return {
        from,
        to,
        proof: proof.map((hash) => hash.toString("base64")),
        fromRootHash: fromRoot.toString("base64"),
        toRootHash: toRoot.toString("base64"),
      };
    },
    auditTrailAsXlsx: async (_parent, { filter }: { filter?: AuditTrailFilter | null }, context: AopdContext) => {
      const release = context.exportSlots.acquire(context.identity.subject);
      try {
        const { file, rows } = await exportAuditTrailAsXlsx(context.db, filter, context.config.maxExportRows);
        await recordExport(context.db, originOf(context), "AUDIT_TRAIL_EXPORTED", "auditTrailAsXlsx", filter, rows);
        return file;
      } finally {
        release();
      }
    },
    lang: (_parent, _args, context: AopdContext) => context.portal.lang,
    theme: (_parent, _args, context: AopdContext) => context.portal.theme,
    logo: (_parent, _args, context: AopdContext) => context.portal.logo,
  },
  Subscription: {
    aopdProofs: aopdProofsSubscription,
  },
  AopdProof: {
    __resolveType: (proof: Proof) => proof.__typename,
    __resolveReference: (reference: { id: string }, context: AopdContext) => resolveProofReference(reference, context),
  },
  AopdSignatureProof: {
    cursor: proofCursorField,
    history,
    screening: screeningOfProof,
    decisions: (proof: Proof, _args, context: AopdContext) => decisionHistoryLoaderOf(context).load(proof.id),
    proposal: (proof: SignatureProof, _args, context: AopdContext) => proposalOf(proof, context),
    __resolveReference: (reference: { id: string }, context: AopdContext) => resolveProofReference(reference, context),
  },
  AopdSatoshiProof: {
    cursor: proofCursorField,
    history,
    screening: screeningOfProof,
    decisions: (proof: Proof, _args, context: AopdContext) => decisionHistoryLoaderOf(context).load(proof.id),
    proposal: (proof: SatoshiProof, _args, context: AopdContext) => proposalOf(proof, context),
    __resolveReference: (reference: { id: string }, context: AopdContext) => resolveProofReference(reference, context),
  },
  AopdMediaProof: {
    cursor: proofCursorField,
    history,
    screening: screeningOfProof,
    decisions: (proof: Proof, _args, context: AopdContext) => decisionHistoryLoaderOf(context).load(proof.id),
    proposal: (proof: MediaProof, _args, context: AopdContext) => proposalOf(proof, context),
    mediaUrl: (proof: Proof, _args, context: AopdContext) => `${context.config.mediaUrl.replace(/\/+$/, "")}/${proof.id}`,
    __resolveReference: (reference: { id: string }, context: AopdContext) => resolveProofReference(reference, context),
  },
};

/** A proof's `history`: its entries on the audit trail (the role `audit:read` is checked by the gateway and the identity door). */
async function history(proof: Proof, _args: unknown, context: AopdContext) {
  return (await selectProofHistory(context.db, proof.id)).map(toAuditEntry);
}

/** The proposal awaiting a second officer (four eyes): the last entry of the proof's history, when the proof names it. */
async function proposalOf(proof: SignatureProof | SatoshiProof | MediaProof, context: AopdContext): Promise<Decision | null> {
  if (proof.proposalId === null || proof.proposalId === undefined) return null;
  const history = await decisionHistoryLoaderOf(context).load(proof.id);
  return history.find((entry) => entry.id === proof.proposalId) ?? null;
}

/** Entity resolution for other subgraphs: an id that names no proof resolves to null. */
async function resolveProofReference(reference: { id: string }, context: AopdContext): Promise<Proof | null> {
  const [row] = await findProofsByIds(context.db, [reference.id]);
  return row ? toProof(row) : null;
}
