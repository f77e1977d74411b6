import { sql, type Kysely } from "kysely";
import type { AuditEvent } from "../audit/append-audit-entry.js";
import { authenticateAuditEntry } from "../audit/audit-entry-authentication.js";
import { canonicalJson, storedAuditEntryHash } from "../audit/audit-entry-hash.js";
import { auditKeyring, type AuditKeyring } from "../audit/audit-keyring.js";
import { extendAuditTree } from "../audit/audit-tree-store.js";
import { chainAuditEntries } from "../audit/chain-audit-entries.js";
import type { AopdDatabase, AuditEntryRow } from "../database/database-schema.js";
import type { Database } from "../database/open-database.js";
import { SeededRandom } from "./seeded-random.js";

export interface AuditLogSeedOptions {
  /** Entries to add after the trail's last one. */
  count: number;
  /** Entries per transaction: bounds memory and the head's lock. @default 20_000 */
  batchSize?: number;
  /** The generator's seed for the demo entries' proofs and officers. @default 1 */
  seed?: number;
  /** Hears the count added after each batch. */
  onProgress?: (added: number) => void;
}

/** Why the seeder refused to write: it writes only under the development audit key. */
export class AuditSeedRefusedError extends Error {}

/**
 * Fills the audit log with `count` demo entries in bulk, for benchmarks of a long log: a million
 * entries took 8 minutes on two cores at a load of 17, twice as fast as appending them and having
 * the sequencer chain them, 1,000 a transaction, and without the sequencer's UPDATE of every row.
 * The entries are what aopd itself would have written: each authenticated under the audit key
 * (`authenticateAuditEntry`), chained (`storedAuditEntryHash`), and the leaves of the Merkle tree,
 * whose nodes `extendAuditTree` computes and stores from the rows as the sequencer does; so
 * `npm run verify-audit`, the witness and the inclusion proofs treat them as any other entry.
 *
 * What it skips is the sequencer's second step: the entries are inserted already chained (their
 * `seq`, `previous_hash` and `hash` given at INSERT), under the head's lock as the sequencer takes
 * it, instead of inserted unchained and then updated. No trigger is bypassed: the trail's triggers
 * refuse UPDATE, DELETE and TRUNCATE, and an INSERT of a chained entry was never one of them.
 *
 * Threat: a path that writes chained, authenticated entries is a forger's tool when it holds the
 * deployment's key. So it refuses any keyring but the development one, whose key is derived from a
 * published text and refused by production (audit-keyring.ts): with it the seeder can do nothing
 * that anyone reading the source could not. It is reached from benchmarks and tests only (through
 * `internals.ts`), never from a route, a job or a command of the deployable.
 */
export async function seedAuditLog(database: Database, options: AuditLogSeedOptions): Promise<{ count: number }> {
  const keyring = auditKeyring();
  if (!keyring.development)
    throw new AuditSeedRefusedError("the audit log seeder writes only under the development audit key; this process holds a real AOPD_AUDIT_KEY");
  const db = database.longRunning;
  const batchSize = options.batchSize ?? 20_000;
  const random = new SeededRandom(options.seed ?? 1);
  const officers = Array.from({ length: 8 }, (_unused, index) => ({
    subject: `demo-officer-${index + 1}`,
    client: "compliance-console",
    username: `Demo officer ${index + 1}`,
    system: false,
  }));
  const proofs = Array.from({ length: 1_000 }, () => random.uuid());
  // Views and downloads only: `verify-audit` replays decisions and holds against the tables, and these demo proofs do not exist.
  const demoEvent = (): AuditEvent => {
    const viewed = random.next() < 0.7;
    return {
      origin: { actor: random.pick(officers), requestId: random.uuid() },
      action: viewed ? "MEDIA_VIEWED" : "MEDIA_DOWNLOADED",
      proofId: random.pick(proofs),
      details: viewed ? {} : { byteSize: 10_000 + random.int(5_000_000) },
    };
  };
  // Whatever waits is chained first, and the tree catches up with the chain, through aopd's own path.
  await chainAuditEntries(db);
  for (let added = 0; added < options.count;) {
    const size = Math.min(batchSize, options.count - added);
    await appendChainedBatch(db, keyring, Array.from({ length: size }, demoEvent));
    added += size;
    options.onProgress?.(added);
  }
  await sql`ANALYZE aopd_audit_entry`.execute(db);
  await sql`ANALYZE aopd_audit_tree_node`.execute(db);
  return { count: options.count };
}

/** One transaction: the head locked, the entries inserted chained after it in one statement, the head moved, the tree extended over them. */
async function appendChainedBatch(db: Kysely<AopdDatabase>, keyring: AuditKeyring, events: readonly AuditEvent[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const head = await trx.selectFrom("aopd_audit_head").select(["seq", "hash", "tree_size"]).forUpdate().executeTakeFirstOrThrow();
    if (String(head.tree_size) !== String(head.seq))
      throw new Error(`the audit tree (${head.tree_size} leaves) is behind the chain (${head.seq} entries): run the sequencer before seeding`);
    const occurredAt = new Date();
    let seq = BigInt(head.seq);
    let previousHash = head.hash;
    const rows = events.map((event) => {
      seq += 1n;
      const row = chainedRow(keyring, event, occurredAt, seq.toString(), previousHash);
      previousHash = row.hash!;
      return row;
    });
    const column = <K extends keyof AuditEntryRow>(name: K) => rows.map((row) => row[name]);
    // unnest: one statement and sixteen parameters for any number of rows, where VALUES would need sixteen a row.
    await sql`
      INSERT INTO aopd_audit_entry (seq, occurred_at, action, proof_id, actor_subject, actor_client, actor_username, actor_system,
        request_id, trace_id, details, previous_hash, hash, auth_key_id, auth_nonce, auth_mac)
      SELECT * FROM unnest(${column("seq")}::bigint[], ${rows.map((row) => row.occurred_at.toISOString())}::timestamptz[],
        ${column("action")}::text[], ${column("proof_id")}::uuid[], ${column("actor_subject")}::text[], ${column("actor_client")}::text[],
        ${column("actor_username")}::text[], ${column("actor_system")}::boolean[], ${column("request_id")}::text[], ${column("trace_id")}::text[],
        ${column("details")}::text[], ${column("previous_hash")}::text[], ${column("hash")}::text[], ${column("auth_key_id")}::text[],
        ${column("auth_nonce")}::text[], ${column("auth_mac")}::text[])
    `.execute(trx);
    await trx.updateTable("aopd_audit_head").set({ seq: seq.toString(), hash: previousHash }).execute();
    const grown = await extendAuditTree(trx, events.length);
    if (grown !== events.length) throw new Error(`the audit tree grew by ${grown} leaves for ${events.length} entries seeded`);
  });
}

/** The row aopd would hold for `event` once chained at `seq` after `previousHash`: authenticated and hashed by aopd's own functions. */
function chainedRow(keyring: AuditKeyring, event: AuditEvent, occurredAt: Date, seq: string, previousHash: string): AuditEntryRow {
  const content = {
    occurredAt,
    action: event.action,
    proofId: event.proofId?.toLowerCase() ?? null,
    actorSubject: event.origin.actor.subject,
    actorClient: event.origin.actor.client,
    actorUsername: event.origin.actor.username,
    actorSystem: event.origin.actor.system,
    requestId: event.origin.requestId,
    traceId: null,
    details: canonicalJson(event.details),
  };
  const row: AuditEntryRow = {
    insertion: "",
    seq,
    occurred_at: content.occurredAt,
    action: content.action,
    proof_id: content.proofId,
    actor_subject: content.actorSubject,
    actor_client: content.actorClient,
    actor_username: content.actorUsername,
    actor_system: content.actorSystem,
    request_id: content.requestId,
    trace_id: content.traceId,
    details: content.details,
    previous_hash: previousHash,
    hash: null,
    ...authenticateAuditEntry(keyring, content),
  };
  row.hash = storedAuditEntryHash(row, seq, previousHash);
  return row;
}
