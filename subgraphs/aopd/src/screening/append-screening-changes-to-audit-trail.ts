import type { Kysely } from "kysely";
import { appendAuditEntries } from "../audit/append-audit-entry.js";
import { screeningActor } from "../audit/audit-actor.js";
import type { AopdDatabase } from "../database/database-schema.js";
import type { ScreeningChange } from "./rescreen-proofs.js";

/**
 * The one place a re-screening's changes reach the audit trail, in the re-screening's transaction:
 * one entry per proof whose address a new list version put onto or took off the list, naming the
 * version. A proof's first screening (NOT_SCREENED to CLEAR, which a first import does for every
 * proof at once) is no entry: it changes no officer's picture of the proof, and a million of them
 * would make an import's transaction a million appends. Those proofs carry the list version that
 * screened them.
 */
export async function appendScreeningChangesToAuditTrail(
  trx: Kysely<AopdDatabase>,
  changes: readonly ScreeningChange[],
  listVersion: { list: string; publishedOn: string },
): Promise<void> {
  const listed = changes.filter((change) => change.from === "LISTED" || change.to === "LISTED");
  await appendAuditEntries(
    trx,
    listed.map((change) => ({
      origin: { actor: screeningActor, requestId: null },
      action: "SCREENING_CHANGED",
      proofId: change.proofId,
      details: { from: change.from, to: change.to, list: listVersion.list, listVersion: listVersion.publishedOn },
    })),
  );
}
