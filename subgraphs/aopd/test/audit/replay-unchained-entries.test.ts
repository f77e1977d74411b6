import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEntry } from "../../src/audit/append-audit-entry.js";
import { auditKeyring } from "../../src/audit/audit-keyring.js";
import { chainAuditEntries } from "../../src/audit/chain-audit-entries.js";
import { replayTrailAgainstTables } from "../../src/audit/replay-trail-against-tables.js";
import { verifyAuditLog } from "../../src/audit/verify-audit-log.js";
import type { Database } from "../../src/database/open-database.js";
import { decideProof } from "../../src/decisions/decide-proof.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

const officer = { subject: "officer-1", client: "console", username: "demo-officer-1", system: false };
const forger = { subject: "officer-2", client: "console", username: "demo-officer-2" };

/**
 * The replay reads entries committed but not chained yet: until the sequencer sets a forged one
 * aside (a plain INSERT by a superuser), it must not count as aopd's. No aopd runs here, so no
 * sequencer: an entry stays unchained until a test chains what is there with `chainAuditEntries`.
 */
describe.each(databaseDrivers)("the replay counts an entry not chained yet only when it authenticates, on %s", (driver) => {
  let database: Database;
  const keyring = auditKeyring();
  /** The replay's findings that name `id`. */
  const findingsAbout = async (id: string) => (await replayTrailAgainstTables(database.db, keyring)).findings.filter((finding) => finding.includes(id));

  /** A media proof whose file was uploaded, with the entry aopd wrote for it. */
  const submittedProof = async () => {
    const { id } = await database.db
      .insertInto("aopd_proof")
      .values({
        kind: "media",
        status: "SUBMITTED",
        customer_id: "CUST-UNCHAINED",
        asset: "DTI4H95J0R2X",
        address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
        media_content_type: "image/png",
        media_byte_size: 1_000,
        media_sha256: "ab".repeat(32),
        media_uploaded_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await appendAuditEntry(database.db, {
      origin: { actor: { subject: "customer", client: "portal", username: null, system: false }, requestId: null },
      action: "SUBMITTED",
      proofId: id,
      details: { evidence: "media", contentType: "image/png", byteSize: 1_000 },
    });
    return id;
  };
  const decide = (id: string) =>
    decideProof(database.db, { kind: "media", id, outcome: "VERIFIED", reason: null, reasonText: null, comment: "seen", decider: officer, requestId: null });
  /** A superuser's INSERT into the trail: everything an entry holds but aopd's authentication. */
  const forgeEntry = async (action: string, proofId: string, details: Record<string, unknown>) => {
    const { rows } = await sql<{ insertion: string }>`
      INSERT INTO aopd_audit_entry (occurred_at, action, proof_id, actor_subject, actor_client, actor_username, actor_system, details)
      VALUES (now(), ${action}, ${proofId}, ${forger.subject}, ${forger.client}, ${forger.username}, false, ${JSON.stringify(details)})
      RETURNING insertion
    `.execute(database.db);
    return String(rows[0]!.insertion);
  };
  const unchained = async (proofId: string) =>
    (await database.db.selectFrom("aopd_audit_entry").select("seq").where("proof_id", "=", proofId).execute()).filter((row) => row.seq === null).length;

  beforeAll(async () => {
    database = await openTestDatabase(driver, "replayunchained");
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("does not let a forged entry explain a forged decision, and names both", async () => {
    const id = await submittedProof();
    await chainAuditEntries(database.db);
    // Behind the triggers, a decision no one made, and the entry that would record it, not chained yet.
    const forgedDecision = randomUUID();
    await database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await sql`
        INSERT INTO aopd_proof_decision (id, proof_id, action, outcome, decider_subject, decider_client, decider_username, decider_system)
        VALUES (${forgedDecision}, ${id}, 'DECIDED', 'VERIFIED', ${forger.subject}, ${forger.client}, ${forger.username}, false)
      `.execute(trx);
      await sql`
        UPDATE aopd_proof SET status = 'VERIFIED', assessment = 'VERIFIED', decision_id = ${forgedDecision}, decision_action = 'DECIDED',
          decided_at = now(), decider_subject = ${forger.subject}, decider_client = ${forger.client}, decider_username = ${forger.username}, decider_system = false
        WHERE id = ${id}
      `.execute(trx);
    });
    const forged = await forgeEntry("DECIDED", id, { comment: null, decisionId: forgedDecision, outcome: "VERIFIED", reason: null, reasonText: null });
    expect(await unchained(id)).toBe(1);

    const findings = await findingsAbout(id);
    expect(findings).toEqual(
      expect.arrayContaining([
        `audit entry at insertion ${forged} (DECIDED of proof ${id} by officer-2, not chained yet) is not authenticated by aopd's key: it carries no authentication (it was not written by aopd); forged or damaged, it is not replayed, and the sequencer will set it aside`,
        `aopd_proof_decision ${forgedDecision} (proof ${id}): the table has a DECIDED by officer-2, no entry of the trail records it`,
        expect.stringMatching(new RegExp(`^aopd_proof ${id}: status: the trail says "SUBMITTED" \\(SUBMITTED, entry \\d+\\), the table says "VERIFIED"$`)),
      ]),
    );
    expect(findings).toHaveLength(3);
    // verify-audit fails on it (exit 1) before the sequencer has set the entry aside.
    expect((await verifyAuditLog(database.db, { keyring })).findings).toEqual(expect.arrayContaining(findings));
  });

  it("does not let a forged entry contradict a genuine decision: only the entry is named", async () => {
    const id = await submittedProof();
    await decide(id);
    await chainAuditEntries(database.db);
    expect(await unchained(id)).toBe(0);
    // A reopening no officer made, naming a decision row that does not exist.
    const forged = await forgeEntry("REOPENED", id, { comment: "reopened", decisionId: randomUUID(), outcome: null, reason: null, reasonText: null });

    expect(await findingsAbout(id)).toEqual([
      expect.stringMatching(new RegExp(`^audit entry at insertion ${forged} \\(REOPENED of proof ${id} by officer-2, `)),
    ]);
  });

  it("replays a genuine entry not chained yet as before", async () => {
    const id = await submittedProof();
    await chainAuditEntries(database.db);
    await decide(id);
    expect(await unchained(id)).toBe(1);
    // It records the decision row and leaves the proof VERIFIED: nothing differs.
    expect(await findingsAbout(id)).toEqual([]);

    const { decision_id: decisionId } = await database.db.selectFrom("aopd_proof").select("decision_id").where("id", "=", id).executeTakeFirstOrThrow();
    await database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await sql`UPDATE aopd_proof_decision SET comment = 'not seen' WHERE id = ${decisionId}`.execute(trx);
    });
    expect(await findingsAbout(id)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^aopd_proof_decision ${decisionId} \\(proof ${id}\\): comment: the trail says "seen" \\(pending insertion \\d+\\), the table says "not seen"$`,
        ),
      ),
    ]);
  });
});
