import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { auditEntryAuthenticationProblem } from "./audit-entry-authentication.js";
import type { AuditKeyring } from "./audit-keyring.js";

/**
 * Entries read per query.
 * @default 5_000
 */
export const authenticationBatchSize = 5_000;

export interface AuditAuthenticationReport {
  /** Chained entries whose authentication holds. */
  authenticated: number;
  /** Chained entries written before entries were authenticated (migration 0019): the leading ones without authentication. */
  unauthenticatedBefore: number;
  /** Chained entries whose authentication fails, by `seq` (the first 100). */
  failures: { seq: string; problem: string }[];
  /** Entries the sequencer set aside, never chained (the first 100). */
  setAside: { insertion: string; occurredAt: Date; action: string; actorSubject: string; reason: string }[];
}

/**
 * Checks every chained entry's authentication under the keyring (audit-entry-authentication.ts)
 * and lists the entries the sequencer set aside. Entries without authentication are accepted only
 * before the first authenticated one (the trail as it was before migration 0019): the sequencer
 * chains no unauthenticated entry since, so one later was written around it.
 */
export async function verifyAuditAuthentication(
  db: Kysely<AopdDatabase>,
  keyring: AuditKeyring,
  options: { batchSize?: number } = {},
): Promise<AuditAuthenticationReport> {
  const batchSize = options.batchSize ?? authenticationBatchSize;
  const report: AuditAuthenticationReport = { authenticated: 0, unauthenticatedBefore: 0, failures: [], setAside: [] };
  let after = "0";
  let sawAuthenticated = false;
  for (;;) {
    const batch = await db.selectFrom("aopd_audit_entry").selectAll().where("seq", ">", after).orderBy("seq").limit(batchSize).execute();
    for (const entry of batch) {
      const seq = String(entry.seq);
      if (!sawAuthenticated && entry.auth_mac === null) {
        report.unauthenticatedBefore += 1;
        continue;
      }
      sawAuthenticated = true;
      const problem = auditEntryAuthenticationProblem(keyring, entry);
      if (problem === null) report.authenticated += 1;
      else if (report.failures.length < 100) report.failures.push({ seq, problem });
    }
    if (batch.length < batchSize) break;
    after = String(batch[batch.length - 1]!.seq);
  }
  const setAside = await db
    .selectFrom("aopd_audit_set_aside as s")
    .innerJoin("aopd_audit_entry as e", "e.insertion", "s.insertion")
    .select(["s.insertion", "e.occurred_at", "e.action", "e.actor_subject", "s.reason"])
    .orderBy("s.insertion")
    .limit(100)
    .execute();
  report.setAside = setAside.map((row) => ({
    insertion: String(row.insertion),
    occurredAt: row.occurred_at,
    action: row.action,
    actorSubject: row.actor_subject,
    reason: row.reason,
  }));
  return report;
}
