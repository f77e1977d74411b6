import { sql, type Kysely, type RawBuilder } from "kysely";
import type { AopdDatabase, AuditEntryRow } from "../database/database-schema.js";
import { auditEntryAuthenticationProblem } from "./audit-entry-authentication.js";
import type { AuditKeyring } from "./audit-keyring.js";
import { entriesWaitingToBeChained } from "./entries-waiting-to-be-chained.js";

/** What the entries committed but not chained yet may count for. */
export interface UnchainedEntries {
  /** The `insertion` of each one that authenticates under the keyring: the only ones that are aopd's. */
  authenticated: string[];
  /** One finding per entry that does not. */
  findings: string[];
}

/**
 * Reads the entries committed but not chained yet (and not set aside), by insertion in pages of
 * `batchSize`, and checks each one's authentication as the sequencer will (`chainAuditEntries`);
 * hands each page's authenticated entries to `onPage`.
 *
 * Threat: a forged entry (an INSERT by a superuser) counts as aopd's until the sequencer sets it
 * aside, about a second later, or longer if the sequencer is stopped: it could vouch for a decision
 * row or a status forged with it, or contradict a genuine one. Chained entries passed the
 * sequencer's check, and `verifyAuditAuthentication` checks them again; these have passed none.
 */
export async function authenticateUnchainedEntries(
  db: Kysely<AopdDatabase>,
  keyring: AuditKeyring,
  batchSize: number,
  onPage: (entries: AuditEntryRow[]) => Promise<void>,
): Promise<UnchainedEntries> {
  const result: UnchainedEntries = { authenticated: [], findings: [] };
  let afterInsertion = "0";
  for (;;) {
    const page = await entriesWaitingToBeChained(db).where("insertion", ">", afterInsertion).orderBy("insertion").limit(batchSize).execute();
    const authentic: AuditEntryRow[] = [];
    for (const entry of page) {
      const problem = auditEntryAuthenticationProblem(keyring, entry);
      if (problem === null) {
        authentic.push(entry);
        result.authenticated.push(String(entry.insertion));
      } else {
        const about = `${entry.action}${entry.proof_id === null ? "" : ` of proof ${entry.proof_id}`} by ${entry.actor_subject}`;
        result.findings.push(
          `audit entry at insertion ${entry.insertion} (${about}, not chained yet) is not authenticated by aopd's key: it ${problem}; ` +
            "forged or damaged, it is not replayed, and the sequencer will set it aside",
        );
      }
    }
    await onPage(authentic);
    if (page.length < batchSize) return result;
    afterInsertion = String(page[page.length - 1]!.insertion);
  }
}

/**
 * True of an entry of the trail (`alias`) that is aopd's: chained (the sequencer authenticated
 * it), or not chained yet and among `authenticated`. One text parameter, whatever their number;
 * PostgreSQL hashes the list once per query.
 */
export function isAopdsEntry(alias: string, authenticated: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${alias}.seq`)} IS NOT NULL OR ${sql.ref(`${alias}.insertion`)} IN (SELECT unnest(string_to_array(${authenticated.join(",")}, ',')::bigint[])))`;
}
