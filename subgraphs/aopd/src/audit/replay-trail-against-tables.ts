import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofDecisionRow } from "../database/database-schema.js";
import type { AuditAction } from "./audit-action.js";
import type { AuditKeyring } from "./audit-keyring.js";
import { authenticateUnchainedEntries, isAopdsEntry } from "./authenticate-unchained-entries.js";

/**
 * Entries (and rows looked up) per query.
 * @default 5_000
 */
export const replayBatchSize = 5_000;

/** The entries that say what a table must hold: each decision's row, the decision in force, the legal hold. */
const decisionActions = [
  "DECIDED",
  "CHAIN_CHECKED",
  "PROPOSED",
  "CONFIRMED",
  "REJECTED",
  "REOPENED",
  "REOPEN_PROPOSED",
] as const satisfies readonly AuditAction[];
const holdActions = ["LEGAL_HOLD_PLACED", "LEGAL_HOLD_LIFTED"] as const satisfies readonly AuditAction[];
const replayedActions: readonly AuditAction[] = [...decisionActions, ...holdActions];

interface ReplayedEntry {
  /** The entry's `seq`, or `insertion N` for one committed and not chained yet. */
  place: string;
  action: string;
  proofId: string | null;
  actorSubject: string;
  details: string;
}

/** One column of the proof row as the trail left it, and the entry that said so. */
interface Said<T> {
  value: T;
  place: string;
}

/** A proof as the trail says it is now; a column no entry spoke of is absent. */
interface ProofAsReplayed {
  status?: Said<string>;
  decisionId?: Said<string | null>;
  proposalId?: Said<string | null>;
  onHold?: Said<boolean>;
  /** A proof with a decision cannot be deleted (migration 0009: decisions are append-only, the foreign key does not cascade). */
  decided: boolean;
}

/**
 * Replays the audit trail against the tables it records and names every row that differs from
 * what the trail says happened. Threat: a superuser who disables the tables' triggers and edits a
 * decision or deletes a held proof, leaving the trail (whose chain and authentication hold) alone.
 * Only aopd's entries count: chained ones (the sequencer authenticated them) and those not chained
 * yet whose authentication verifies under `keyring` (authenticate-unchained-entries.ts); one that
 * does not is forged or damaged, and is named instead of replayed.
 *
 * - Each decision entry (`DECIDED`, `CHAIN_CHECKED`, `PROPOSED`, `CONFIRMED`, `REJECTED`,
 *   `REOPENED`, `REOPEN_PROPOSED`) names its `aopd_proof_decision` row (`details.decisionId`):
 *   the row must exist with the entry's proof, action, outcome, reason, comment and decider.
 * - Each proof a decision entry names must exist, with the status, decision in force and proposal
 *   the last of its entries left (decide-proof.ts, settle-proposal.ts, reopen-proof.ts).
 * - A proof the trail last says was put on legal hold must exist and be on hold; one whose hold
 *   was lifted must not be (it may be gone after its retention).
 * - The other way round: each `aopd_proof_decision` row must be recorded by a decision entry of
 *   its proof naming it (`details.decisionId`), one of aopd's. A row inserted behind the triggers
 *   is a decision no one is on record for (`unrecordedDecisionRows`).
 * - Each proof's status must be the one its last status entry left (`unexplainedStatuses`): a
 *   proof VERIFIED behind the triggers without any decision is named.
 *
 * Cost: one pass over the replayed entries in `seq` order (keyset pages of `replayBatchSize`, then
 * every entry committed but not chained yet, by insertion, each one's MAC computed), one lookup of
 * the page's decision rows by primary key per page, then the proofs by primary key in pages, then
 * the decision rows in keyset pages, each looking its entries up through the trail's index by
 * proof. Memory: one page, plus a few columns per proof that has decision or hold entries, plus the
 * insertion number of each authenticated entry not chained yet (those committed since the
 * sequencer's last run). Everything is read in one repeatable-read snapshot, so a change committed
 * meanwhile is seen in both the trail and the tables, or in neither. Entries set aside by the
 * sequencer are not aopd's and are not replayed; rows the trail never spoke of (proofs decided
 * before the trail existed, demo data) are not judged.
 */
export async function replayTrailAgainstTables(
  db: Kysely<AopdDatabase>,
  keyring: AuditKeyring,
  options: { batchSize?: number } = {},
): Promise<{ replayed: number; findings: string[] }> {
  const batchSize = options.batchSize ?? replayBatchSize;
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const findings: string[] = [];
      const proofs = new Map<string, ProofAsReplayed>();
      let replayed = 0;
      const replay = async (entries: ReplayedEntry[]) => {
        replayed += entries.length;
        findings.push(...(await compareDecisionRows(trx, entries)));
        for (const entry of entries) replayOnProof(proofs, entry);
      };
      let afterSeq = "0";
      for (;;) {
        const page = await trx
          .selectFrom("aopd_audit_entry")
          .select(["seq", "action", "proof_id", "actor_subject", "details"])
          .where("seq", ">", afterSeq)
          .where("action", "in", replayedActions)
          .orderBy("seq")
          .limit(batchSize)
          .execute();
        await replay(
          page.map((row) => ({ place: `entry ${row.seq}`, action: row.action, proofId: row.proof_id, actorSubject: row.actor_subject, details: row.details })),
        );
        if (page.length < batchSize) break;
        afterSeq = String(page[page.length - 1]!.seq);
      }
      const unchained = await authenticateUnchainedEntries(trx, keyring, batchSize, (entries) =>
        replay(
          entries
            .filter((row) => (replayedActions as readonly string[]).includes(row.action))
            .map((row) => ({
              place: `pending insertion ${row.insertion}`,
              action: row.action,
              proofId: row.proof_id,
              actorSubject: row.actor_subject,
              details: row.details,
            })),
        ),
      );
      findings.push(...unchained.findings);
      findings.push(...(await compareProofRows(trx, proofs, batchSize)));
      findings.push(...(await unrecordedDecisionRows(trx, unchained.authenticated, batchSize)));
      // The decision replay compared the status of the proofs its entries decided; the rest here.
      const compared = new Set([...proofs].filter(([, said]) => said.status !== undefined).map(([id]) => id));
      findings.push(...(await unexplainedStatuses(trx, compared, unchained.authenticated, batchSize)));
      return { replayed, findings };
    });
}

function isDecisionAction(action: string): action is (typeof decisionActions)[number] {
  return (decisionActions as readonly string[]).includes(action);
}

function detailsOf(entry: ReplayedEntry): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(entry.details);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The page's decision entries against their rows of `aopd_proof_decision`, fetched in one query. */
async function compareDecisionRows(db: Kysely<AopdDatabase>, entries: ReplayedEntry[]): Promise<string[]> {
  const decisions = entries.filter((entry) => isDecisionAction(entry.action)).map((entry) => ({ entry, details: detailsOf(entry) }));
  const ids = decisions.map(({ details }) => details.decisionId).filter((id): id is string => typeof id === "string");
  const rows = ids.length === 0 ? [] : await db.selectFrom("aopd_proof_decision").selectAll().where("id", "in", ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const findings: string[] = [];
  for (const { entry, details } of decisions) {
    const id = details.decisionId;
    if (typeof id !== "string") {
      findings.push(`audit ${entry.place} (${entry.action} of proof ${entry.proofId}) names no decision row`);
      continue;
    }
    const row = byId.get(id);
    const subject = `aopd_proof_decision ${id} (proof ${entry.proofId})`;
    if (!row) {
      findings.push(`${subject}: the trail says it was recorded (${entry.action}, ${entry.place}), the table has no such row`);
      continue;
    }
    const expected: [keyof ProofDecisionRow, unknown][] = [
      ["proof_id", entry.proofId],
      ["action", entry.action === "CHAIN_CHECKED" ? "DECIDED" : entry.action],
      ["outcome", details.outcome ?? null],
      ["reason", details.reason ?? null],
      ["reason_text", details.reasonText ?? null],
      ["comment", details.comment ?? null],
      ["decider_subject", entry.actorSubject],
    ];
    for (const [field, said] of expected) {
      if (row[field] !== said) findings.push(`${subject}: ${field}: the trail says ${shown(said)} (${entry.place}), the table says ${shown(row[field])}`);
    }
  }
  return findings;
}

/** What one entry says of its proof's row, over what earlier entries said. */
function replayOnProof(proofs: Map<string, ProofAsReplayed>, entry: ReplayedEntry): void {
  if (entry.proofId === null) return;
  const proof = proofs.get(entry.proofId) ?? { decided: false };
  proofs.set(entry.proofId, proof);
  const place = entry.place;
  const decisionId = detailsOf(entry).decisionId;
  const id = typeof decisionId === "string" ? decisionId : null;
  switch (entry.action) {
    case "DECIDED":
    case "CHAIN_CHECKED":
    case "CONFIRMED":
      proof.status = { value: String(detailsOf(entry).outcome), place };
      proof.decisionId = { value: id, place };
      proof.proposalId = { value: null, place };
      break;
    case "PROPOSED":
    case "REOPEN_PROPOSED":
      proof.proposalId = { value: id, place };
      break;
    case "REJECTED":
      proof.proposalId = { value: null, place };
      break;
    case "REOPENED":
      proof.status = { value: "SUBMITTED", place };
      proof.decisionId = { value: null, place };
      proof.proposalId = { value: null, place };
      break;
    case "LEGAL_HOLD_PLACED":
    case "LEGAL_HOLD_LIFTED":
      proof.onHold = { value: entry.action === "LEGAL_HOLD_PLACED", place };
      break;
  }
  if (isDecisionAction(entry.action)) proof.decided = true;
}

/** Each proof the trail spoke of against its row, fetched by primary key in pages. */
async function compareProofRows(db: Kysely<AopdDatabase>, proofs: Map<string, ProofAsReplayed>, batchSize: number): Promise<string[]> {
  const findings: string[] = [];
  const ids = [...proofs.keys()];
  for (let start = 0; start < ids.length; start += batchSize) {
    const page = ids.slice(start, start + batchSize);
    const rows = await db.selectFrom("aopd_proof").select(["id", "status", "decision_id", "proposal_id", "legal_hold_since"]).where("id", "in", page).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of page) {
      const said = proofs.get(id)!;
      const row = byId.get(id);
      const subject = `aopd_proof ${id}`;
      if (!row) {
        if (said.onHold?.value) findings.push(`${subject}: the trail says it is on legal hold (${said.onHold.place}), the table has no such proof`);
        else if (said.decided) findings.push(`${subject}: the trail says it was decided (its decisions cannot be deleted), the table has no such proof`);
        continue;
      }
      const compared: [string, Said<unknown> | undefined, unknown][] = [
        ["status", said.status, row.status],
        ["decision_id", said.decisionId, row.decision_id],
        ["proposal_id", said.proposalId, row.proposal_id],
        [
          "legal_hold",
          said.onHold && { ...said.onHold, value: said.onHold.value ? "on hold" : "not on hold" },
          row.legal_hold_since === null ? "not on hold" : "on hold",
        ],
      ];
      for (const [field, trail, table] of compared) {
        if (trail && trail.value !== table)
          findings.push(`${subject}: ${field}: the trail says ${shown(trail.value)} (${trail.place}), the table says ${shown(table)}`);
      }
    }
  }
  return findings;
}

/**
 * The decision rows no entry of the trail records, in keyset pages of `batchSize` by id. Rows
 * decided before the trail existed (migration 0012 ran) have no entry and are not judged; a row
 * backdated before that is the one blind spot, and its proof's status and decision still meet the
 * entries that speak of them. An entry counts only if it is aopd's (`isAopdsEntry`): a forged
 * INSERT records nothing, set aside by the sequencer or not yet.
 */
async function unrecordedDecisionRows(db: Kysely<AopdDatabase>, authenticated: readonly string[], batchSize: number): Promise<string[]> {
  const trailStart = await sql<{ timestamp: string }>`SELECT timestamp FROM aopd_migration WHERE name = '0012-add-audit-trail'`.execute(db);
  const since = trailStart.rows[0]?.timestamp ?? "-infinity";
  const findings: string[] = [];
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const { rows } = await sql<{ id: string; proof_id: string; action: string; decider_subject: string }>`
      SELECT d.id, d.proof_id, d.action, d.decider_subject
      FROM aopd_proof_decision AS d
      WHERE d.id > ${after}::uuid AND d.decided_at >= ${since}::timestamptz
        AND NOT EXISTS (
          SELECT 1 FROM aopd_audit_entry AS e
          WHERE e.proof_id = d.proof_id
            AND e.action IN (${sql.join(decisionActions.map((action) => sql.lit(action)))})
            AND e.details::jsonb ->> 'decisionId' = d.id::text
            AND ${isAopdsEntry("e", authenticated)}
        )
      ORDER BY d.id
      LIMIT ${batchSize}
    `.execute(db);
    for (const row of rows) {
      findings.push(
        `aopd_proof_decision ${row.id} (proof ${row.proof_id}): the table has a ${row.action} by ${row.decider_subject}, no entry of the trail records it`,
      );
    }
    if (rows.length < batchSize) return findings;
    after = rows[rows.length - 1]!.id;
  }
}

/** The entries that move a proof's status, in the order `statusSaidBy` reads them. */
const statusActions = [
  "REQUESTED",
  "SUBMITTED",
  "MEDIA_ATTACHED",
  "MATCHED_ON_CHAIN",
  "EXPIRED",
  "DECIDED",
  "CHAIN_CHECKED",
  "CONFIRMED",
  "REOPENED",
] as const satisfies readonly AuditAction[];

/**
 * The status an entry leaves its proof in (proofs/change-proof-status.ts and the decisions): a
 * request is PENDING; evidence makes it SUBMITTED, but a signature's (`evidence: "signature"`)
 * decides it VERIFIED unless screening left it for review; a decision its outcome; a reopening SUBMITTED.
 */
function statusSaidBy(action: string, details: Record<string, unknown>): string {
  switch (action) {
    case "REQUESTED":
      return "PENDING";
    case "SUBMITTED":
      return details.evidence === "signature" && details.leftForReview === undefined ? "VERIFIED" : "SUBMITTED";
    case "MEDIA_ATTACHED":
    case "MATCHED_ON_CHAIN":
    case "REOPENED":
      return "SUBMITTED";
    case "EXPIRED":
      return "EXPIRED";
    default:
      return String(details.outcome);
  }
}

/**
 * Each proof against the last entry that moved its status (by insertion: one proof's changes are
 * serialized by its row lock, so their entries are inserted in the order they happened), in keyset
 * pages of proofs, each looking its entries up through the trail's index by proof. Proofs no entry
 * speaks of (made before the trail existed, demo data) are not judged, nor those in `compared`;
 * only aopd's entries count (`isAopdsEntry`).
 */
async function unexplainedStatuses(
  db: Kysely<AopdDatabase>,
  compared: ReadonlySet<string>,
  authenticated: readonly string[],
  batchSize: number,
): Promise<string[]> {
  const findings: string[] = [];
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const { rows } = await sql<{ id: string; status: string; action: string; details: string; seq: string | null; insertion: string }>`
      SELECT p.id, p.status, last.action, last.details, last.seq, last.insertion
      FROM aopd_proof AS p
      JOIN LATERAL (
        SELECT e.action, e.details, e.seq, e.insertion FROM aopd_audit_entry AS e
        WHERE e.proof_id = p.id
          AND e.action IN (${sql.join(statusActions.map((action) => sql.lit(action)))})
          AND ${isAopdsEntry("e", authenticated)}
        ORDER BY e.insertion DESC
        LIMIT 1
      ) AS last ON true
      WHERE p.id > ${after}::uuid
      ORDER BY p.id
      LIMIT ${batchSize}
    `.execute(db);
    for (const row of rows) {
      if (compared.has(row.id)) continue;
      const entry: ReplayedEntry = { place: "", action: row.action, proofId: row.id, actorSubject: "", details: row.details };
      const said = statusSaidBy(row.action, detailsOf(entry));
      const place = row.seq === null ? `pending insertion ${row.insertion}` : `entry ${row.seq}`;
      if (said !== row.status)
        findings.push(`aopd_proof ${row.id}: status: the trail says ${shown(said)} (${row.action}, ${place}), the table says ${shown(row.status)}`);
    }
    if (rows.length < batchSize) return findings;
    after = rows[rows.length - 1]!.id;
  }
}

function shown(value: unknown): string {
  return value === null || value === undefined ? "none" : JSON.stringify(value);
}
