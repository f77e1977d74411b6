import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import type { AuditKeyring } from "./audit-keyring.js";
import type { NoteVerifier } from "./signed-note.js";
import { verifyAgainstCheckpoint } from "./verify-audit-checkpoint.js";
import { verifyAuditAuthentication } from "./verify-audit-authentication.js";
import { replayTrailAgainstTables } from "./replay-trail-against-tables.js";

/** What `npm run verify-audit` adds to the chain's walk: each finding is something that does not hold; notes only inform. */
export interface AuditLogVerification {
  findings: string[];
  notes: string[];
}

/**
 * The checks of the transparency log (docs/audit-transparency.md) over the configured database:
 * every chained entry authenticates under the audit keys, every entry set aside is named, and,
 * given a checkpoint kept outside the database (`--checkpoint FILE`), the trail still hashes to it;
 * and the tables hold what the trail says happened (replay-trail-against-tables.ts).
 */
export async function verifyAuditLog(
  db: Kysely<AopdDatabase>,
  options: { keyring: AuditKeyring; checkpoint?: { note: string; log: NoteVerifier } },
): Promise<AuditLogVerification> {
  const findings: string[] = [];
  const notes: string[] = [];
  const authentication = await verifyAuditAuthentication(db, options.keyring);
  notes.push(
    `${authentication.authenticated} entries authenticated${authentication.unauthenticatedBefore > 0 ? `, ${authentication.unauthenticatedBefore} written before entries were authenticated` : ""}`,
  );
  for (const failure of authentication.failures) findings.push(`audit entry ${failure.seq} ${failure.problem}`);
  for (const entry of authentication.setAside) {
    findings.push(
      `audit entry set aside (insertion ${entry.insertion}, ${entry.action} by ${entry.actorSubject}, dated ${entry.occurredAt.toISOString()}): ${entry.reason}`,
    );
  }
  const replay = await replayTrailAgainstTables(db, options.keyring);
  findings.push(...replay.findings);
  if (replay.findings.length === 0)
    notes.push(`the decisions, proofs and legal holds agree with the ${replay.replayed} entries that record them, and each decision row is on the trail`);
  if (options.checkpoint) {
    const problems = await verifyAgainstCheckpoint(db, options.checkpoint.note, options.checkpoint.log);
    findings.push(...problems);
    if (problems.length === 0) notes.push(`the trail holds the witnessed checkpoint`);
  }
  return { findings, notes };
}
