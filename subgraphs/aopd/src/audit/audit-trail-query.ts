import { isUuid } from "@compliance-graph/filter";
import { UserInputError } from "@compliance-graph/errors";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, AuditEntryRow } from "../database/database-schema.js";
import { auditActions, type AuditAction } from "./audit-action.js";

/** `auditTrail`'s arguments, as GraphQL passes them. */
export interface AuditTrailPageInput {
  filter?: AuditTrailFilter | null;
  after?: string | null;
  limit: number;
}

export interface AuditTrailFilter {
  actorSubject?: string | null;
  actorUsername?: string | null;
  actions?: readonly AuditAction[] | null;
  proofId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

/** The most entries one page returns. @default 1_000 */
export const maxAuditPageSize = 1_000;
/** The most entries a proof's `history` returns. @default 1_000 */
export const maxProofHistory = 1_000;

/**
 * A page of the trail in `seq` order after the cursor, with the filter's conditions: one statement
 * of indexed reads (keyset on `seq`), so a page deep in the trail costs what the first one does. Bad input is
 * refused naming the argument, before any query.
 *
 * Entries committed but not chained yet (`seq` null, for about a second) are committed facts and
 * shown: at the end of the page that reaches the chain's end, in insertion order, as room is left.
 * `endCursor` never passes them (it is the last chained `seq` of the page), so a reader paging on
 * sees each of them again, chained, and misses none: an entry chained later always gets a `seq`
 * above every cursor given out before, as positions of the proof event log do.
 */
export async function selectAuditTrailPage(
  db: Kysely<AopdDatabase>,
  input: AuditTrailPageInput,
): Promise<{ entries: AuditEntryRow[]; endCursor: string | null; hasMore: boolean }> {
  if (!Number.isSafeInteger(input.limit) || input.limit < 1 || input.limit > maxAuditPageSize) {
    throw new UserInputError("limit", `must be from 1 to ${maxAuditPageSize}; got ${input.limit}.`);
  }
  const after = input.after ?? null;
  if (after !== null && !/^(0|[1-9][0-9]{0,18})$/.test(after))
    throw new UserInputError("after", "must be the `seq` of an entry (decimal digits), as `endCursor` gives it.");
  let chainedQuery = filteredAuditEntries(db, input.filter)
    .selectAll()
    .where("seq", "is not", null)
    .orderBy("seq")
    .limit(input.limit + 1);
  if (after !== null) chainedQuery = chainedQuery.where("seq", ">", after);
  // The unchained entries fill the room the chained ones leave (none is read when there are more chained ones to page
  // through), in the same statement, so in one snapshot: read in two statements, an entry the sequencer chains between
  // them would be unchained for the first read and chained for the second, and missing from both.
  const room = sql<number>`greatest(0, ${input.limit} - (SELECT count(*) FROM chained))`;
  const unchainedQuery = filteredAuditEntries(db, input.filter).selectAll().where("seq", "is", null).orderBy("insertion").limit(room);
  const rows = await db
    .with("chained", () => chainedQuery)
    .selectFrom("chained")
    .selectAll()
    .unionAll(db.selectFrom(unchainedQuery.as("unchained")).selectAll())
    // ASC puts nulls last: the chained entries in chain order, then the unchained ones.
    .orderBy("seq")
    .orderBy("insertion")
    .execute();
  const hasMore = rows.length > input.limit && rows[input.limit]!.seq !== null;
  const entries = rows.slice(0, input.limit);
  const chained = entries.filter((row) => row.seq !== null);
  const endCursor = chained.length > 0 ? String(chained.at(-1)!.seq) : after;
  return { entries, endCursor, hasMore };
}

/** The entries the filter selects (checked first: a bad filter is refused naming its field, before any query). */
export function filteredAuditEntries(db: Kysely<AopdDatabase>, filter: AuditTrailFilter | null | undefined) {
  const given = filter ?? {};
  if (given.actions !== undefined && given.actions !== null && (given.actions.length < 1 || given.actions.length > auditActions.length)) {
    throw new UserInputError("filter.actions", `must name 1 to ${auditActions.length} actions; leave it out for every action.`);
  }
  if (given.proofId !== undefined && given.proofId !== null && !isUuid(given.proofId))
    throw new UserInputError("filter.proofId", "must be a proof id (a UUID).");
  if (given.from && given.to && given.from >= given.to) throw new UserInputError("filter.to", "must be later than filter.from.");
  let query = db.selectFrom("aopd_audit_entry");
  if (given.actorSubject) query = query.where("actor_subject", "=", given.actorSubject);
  if (given.actorUsername) query = query.where("actor_username", "=", given.actorUsername);
  if (given.actions) query = query.where("action", "in", [...given.actions]);
  if (given.proofId) query = query.where("proof_id", "=", given.proofId.toLowerCase());
  if (given.from) query = query.where("occurred_at", ">=", given.from);
  if (given.to) query = query.where("occurred_at", "<", given.to);
  return query;
}

/** A proof's entries, oldest first (those not chained yet last, `seq` null), at most `maxProofHistory`. */
export function selectProofHistory(db: Kysely<AopdDatabase>, proofId: string): Promise<AuditEntryRow[]> {
  // ASC puts nulls last in PostgreSQL: chained entries in chain order, then the unchained ones.
  return db.selectFrom("aopd_audit_entry").selectAll().where("proof_id", "=", proofId).orderBy("seq").orderBy("insertion").limit(maxProofHistory).execute();
}
