import type { Kysely } from "kysely";
import { pollUntil } from "@compliance-graph/test-kit";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import type { AopdDatabase } from "../../src/database/database-schema.js";

/** Waits for aopd's sequencer (woken by the inserts' NOTIFY) to chain every committed audit entry. */
export function everyAuditEntryChained(db: Kysely<AopdDatabase>) {
  return pollUntil(
    "every audit entry chained",
    () => verifyAuditTrail(db),
    (verification) => verification.pending === 0,
    { timeoutMs: 60_000, intervalMs: 50 },
  );
}
