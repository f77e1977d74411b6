import type { PublicProofView } from "@compliance-graph/portal-contract";
import type { AopdConfig } from "../aopd-config.js";
import type { ProofKind } from "../database/database-schema.js";
import type { PublicProofSource } from "../kinds/proof-kind.js";
import { officerDecides, proofKinds } from "../kinds/proof-kinds.js";

// What the holder of a proof's one-time credential may see is built field by field from an
// allow-list (here, and each kind's `portalView`), so a column added to the table later is not
// published by accident; never the customer id, the comment, the credential's hash or anything of
// another proof.
export type { PublicProofView };
export { publicProofColumns, type PublicProofSource } from "../kinds/proof-kind.js";

/**
 * Whether the proof's status can no longer change: EXPIRED is the end; VERIFIED and FAILED are
 * the end only where the evidence decided (an officer's decision can be reopened: `officerDecides`,
 * so a signature proof an officer decided after screening left it for review is not settled).
 */
export function isSettled(row: Pick<PublicProofSource, "kind" | "status" | "left_for_review">): boolean {
  if (row.status === "EXPIRED") return true;
  if (row.status !== "VERIFIED" && row.status !== "FAILED") return false;
  return !officerDecides(row);
}

/** The proof as the portal's API shows it: the fields every kind has, then each kind's part (null but for the proof's own kind). */
export function toPublicProofView(config: AopdConfig, row: PublicProofSource, token: string): PublicProofView {
  const asset = config.assets.get(row.asset);
  const iso = (date: Date | string) => new Date(date).toISOString();
  const parts = Object.fromEntries(proofKinds.map((kind) => [kind.name, row.kind === kind.name ? kind.portalView(config, row, token) : null])) as Pick<
    PublicProofView,
    ProofKind
  >;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    settled: isSettled(row),
    asset: {
      code: row.asset,
      name: asset?.name ?? row.asset,
      symbol: asset?.symbol ?? null,
      network: asset?.network ?? null,
      addressFamily: asset?.addressFamily ?? null,
      decimals: asset?.decimals ?? null,
    },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    dueAt: row.due_at === null ? null : iso(row.due_at),
    address: row.address,
    ...parts,
  };
}
