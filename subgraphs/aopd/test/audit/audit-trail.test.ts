import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Identity } from "@compliance-graph/identity";
import { pngImage, pollUntil, readWorkbook, worksheetXml } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditActions } from "../../src/audit/audit-action.js";
import { exportAuditTrailAsXlsx } from "../../src/audit/export-audit-trail-as-xlsx.js";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import type { AopdDatabase } from "../../src/database/database-schema.js";
import { expirePendingProofs } from "../../src/proofs/expire-pending-proofs.js";
import { assembleAopdSdl } from "../../src/schema/assemble-aopd-sdl.js";
import { evidenceHashOf } from "../../src/proofs/evidence-hash.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { portalApi } from "../support/portal-client.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";

const requester: Identity = {
  subject: "sa-requests",
  client: "intake-service",
  username: "service-account-intake",
  roles: ["proofs:read", "proofs:write", "proofs:export"],
};
const alice: Identity = {
  subject: "3f0c9a7e-alice",
  client: "compliance-console",
  username: "alice",
  roles: ["proofs:read", "proofs:assess", "proofs:export"],
};
const auditor: Identity = { subject: "5b7d-auditor", client: "compliance-console", username: "auditor", roles: ["proofs:read", "audit:read"] };

const entryFields = "seq occurredAt action proofId actor { subject username client system } requestId traceId details hash previousHash";

interface Entry {
  seq: string | null;
  action: string;
  proofId: string | null;
  actor: { subject: string; username: string | null; client: string; system: boolean };
  requestId: string | null;
  details: string;
}

/** Runs `work` in a transaction that is rolled back afterwards, so a tampering is seen and then undone. */
async function inRolledBackTransaction(db: Kysely<AopdDatabase>, work: (trx: Kysely<AopdDatabase>) => Promise<void>): Promise<void> {
  const rollback = new Error("rolled back on purpose");
  await expect(
    db.transaction().execute(async (trx) => {
      // As a superuser who turned the append-only trigger off: what the hash chain is there to show.
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await work(trx);
      throw rollback;
    }),
  ).rejects.toBe(rollback);
}

describe("the audit trail's actions are the API's", () => {
  it("lists every action kind in AopdAuditAction, in the same order", () => {
    const sdl = assembleAopdSdl();
    const body = sdl.slice(sdl.indexOf("enum AopdAuditAction {"), sdl.indexOf("}", sdl.indexOf("enum AopdAuditAction {")));
    expect([...body.matchAll(/^ {2}([A-Z_]+)$/gm)].map((match) => match[1])).toEqual([...auditActions]);
  });
});

describe.each(databaseDrivers)("the audit trail on %s", (driver) => {
  let aopd: AopdWithOfficers;
  const run = async (identity: Identity, query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await aopd.queryAs(identity, query, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return body.data!.aopd as Record<string, unknown>;
  };
  const trail = async (variables: Record<string, unknown> = {}) =>
    (
      await run(
        auditor,
        `query($filter: AopdAuditTrailFilterInput, $after: ID, $limit: Int!) { aopd { auditTrail(filter: $filter, after: $after, limit: $limit) { entries { ${entryFields} } endCursor hasMore } } }`,
        { limit: 1000, ...variables },
      )
    ).auditTrail as { entries: Entry[]; endCursor: string | null; hasMore: boolean };
  const historyOf = async (id: string) =>
    (
      (
        await run(
          auditor,
          `query($id: String!) { aopd { proofs(limit: 1, filter: { is: { any: { id: { eq: $id } } } }) { ... on AopdMediaProof { history { ${entryFields} } } ... on AopdSatoshiProof { history { ${entryFields} } } } } }`,
          { id },
        )
      ).proofs as { history: Entry[] }[]
    )[0]!.history;

  const requestMedia = async () => {
    const requested = (
      await run(requester, `mutation($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`, {
        input: { customerId: "CUST-AUDIT", asset: bitcoin, expectedAddress: address },
      })
    ).requestMediaProof as { id: string; portalUrl: string };
    return { id: requested.id, token: requested.portalUrl.split("/").pop()! };
  };

  /** Waits for the replica's sequencer (woken by the inserts' NOTIFY) to chain every committed entry. */
  const everyEntryChained = () =>
    pollUntil(
      "every audit entry chained",
      () => verifyAuditTrail(aopd.services.db),
      (verification) => verification.pending === 0,
      { timeoutMs: 60_000, intervalMs: 50 },
    );

  beforeAll(async () => {
    aopd = await startAopdWithOfficers(driver);
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("records a media proof's life, each action with the actor who took it", async () => {
    const proof = await requestMedia();
    const file = pngImage(16, 16);
    expect(
      (
        await portalApi(aopd, `${proof.token}/media`, {
          method: "POST",
          headers: { "content-type": "image/png", "x-request-id": "req-upload-1" },
          body: new Uint8Array(file),
        })
      ).status,
    ).toBe(200);
    const download = await fetch(new URL(`/aopd/media/${proof.id}`, aopd.url), { headers: { authorization: await aopd.authorizationOf(alice) } });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    await run(alice, `mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: FAILED, reason: ADDRESS_NOT_SHOWN, comment: "no address") { id } } }`, {
      id: proof.id,
    });
    await run(alice, `mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "a sharper screenshot arrived") { id } } }`, { id: proof.id });
    await run(
      alice,
      `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "court order 12/2026") { id ... on AopdMediaProof { legalHold { since reason } } } } }`,
      { id: proof.id },
    );
    await run(alice, `mutation($id: ID!) { aopd { liftLegalHold(id: $id, reason: "order lifted") { id } } }`, { id: proof.id });

    const history = await historyOf(proof.id);
    expect(history.map((entry) => [entry.action, entry.actor.subject, entry.actor.client])).toEqual([
      ["REQUESTED", requester.subject, requester.client],
      ["SUBMITTED", "customer", "portal"],
      ["MEDIA_DOWNLOADED", alice.subject, alice.client],
      ["DECIDED", alice.subject, alice.client],
      ["REOPENED", alice.subject, alice.client],
      ["LEGAL_HOLD_PLACED", alice.subject, alice.client],
      ["LEGAL_HOLD_LIFTED", alice.subject, alice.client],
    ]);
    const sha256 = createHash("sha256").update(file).digest("hex");
    expect(JSON.parse(history[1]!.details)).toMatchObject({ evidence: "media", evidenceHash: `sha256:${sha256}`, contentType: "image/png" });
    expect(history[1]!.requestId).toBe("req-upload-1");
    expect(JSON.parse(history[3]!.details)).toMatchObject({ outcome: "FAILED", reason: "ADDRESS_NOT_SHOWN", comment: "no address" });
    expect(JSON.parse(history[5]!.details)).toEqual({ reason: "court order 12/2026" });
    expect(history.every((entry) => entry.actor.system === false)).toBe(true);
  });

  it("records a Satoshi proof's transaction, an officer's attachment, an export and the expiry job, and the chain verifies", async () => {
    const satoshi = (
      await run(requester, `mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id } } }`, {
        input: { customerId: "CUST-AUDIT", asset: bitcoin, senderAddress: address, depositAddress: deposit },
      })
    ).requestSatoshiProof as { id: string };
    const txId = "ab".repeat(32);
    await run(requester, `mutation($id: ID!, $txId: String!) { aopd { finalizeSatoshiProof(id: $id, txId: $txId) { id } } }`, { id: satoshi.id, txId });
    const attached = await requestMedia();
    const put = await fetch(new URL(`/aopd/media/${attached.id}`, aopd.url), {
      method: "PUT",
      headers: { authorization: await aopd.authorizationOf(requester), "content-type": "image/png" },
      body: new Uint8Array(pngImage(8, 8)),
    });
    expect(put.status).toBe(200);
    // Two proofs expire in one pass: their entries are appended together (the batch path of the append).
    const expiring = await requestMedia();
    const alsoExpiring = await requestMedia();
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ due_at: new Date(Date.now() - 1_000) })
      .where("id", "in", [expiring.id, alsoExpiring.id])
      .execute();
    expect((await expirePendingProofs(aopd.services.db)).map((row) => row.id).sort()).toEqual([expiring.id, alsoExpiring.id].sort());
    expect((await historyOf(alsoExpiring.id)).at(-1)).toMatchObject({ action: "EXPIRED" });
    const exported = await run(
      requester,
      `query { aopd { proofsAsXlsx(filter: { is: { any: { customerId: { eq: "CUST-AUDIT" } } } }) proofsCount(filter: { is: { any: { customerId: { eq: "CUST-AUDIT" } } } }) } }`,
    );

    expect((await historyOf(satoshi.id)).map((entry) => entry.action)).toEqual(["REQUESTED", "SUBMITTED"]);
    expect(JSON.parse((await historyOf(satoshi.id))[1]!.details)).toEqual({
      evidence: "transaction",
      evidenceHash: evidenceHashOf(await aopd.services.db.selectFrom("aopd_proof").selectAll().where("id", "=", satoshi.id).executeTakeFirstOrThrow()),
      txId,
    });
    expect((await historyOf(attached.id)).map((entry) => [entry.action, entry.actor.subject])).toEqual([
      ["REQUESTED", requester.subject],
      ["MEDIA_ATTACHED", requester.subject],
    ]);
    expect((await historyOf(expiring.id)).at(-1)).toMatchObject({ action: "EXPIRED", actor: { subject: "system:expiry", system: true }, requestId: null });
    const exports = (await trail({ filter: { actions: ["PROOFS_EXPORTED"], actorSubject: requester.subject } })).entries;
    expect(exports).toHaveLength(1);
    expect(exports[0]).toMatchObject({ proofId: null });
    expect(JSON.parse(exports[0]!.details)).toEqual({
      via: "proofsAsXlsx",
      filter: JSON.stringify({ is: { any: { customerId: { eq: "CUST-AUDIT" } } } }),
      rows: exported.proofsCount,
      outcome: "complete",
    });

    expect(await verifyAuditTrail(aopd.services.db)).toMatchObject({ mismatch: null });
  });

  it("pages the whole trail after a cursor and filters it by actor, action and time", async () => {
    await everyEntryChained();
    const all = await trail();
    expect(all.entries.map((entry) => Number(entry.seq))).toEqual(all.entries.map((_entry, index) => index + 1));
    const first = await trail({ limit: 3 });
    const second = await trail({ limit: 3, after: first.endCursor });
    expect([...first.entries, ...second.entries]).toEqual(all.entries.slice(0, 6));
    expect(first.hasMore).toBe(true);
    const byAlice = await trail({ filter: { actorUsername: "alice" } });
    expect(byAlice.entries.length).toBeGreaterThan(0);
    expect(byAlice.entries.every((entry) => entry.actor.username === "alice")).toBe(true);
    const future = await trail({ filter: { from: new Date(Date.now() + 3_600_000).toISOString() } });
    expect(future).toEqual({ entries: [], endCursor: null, hasMore: false });
    await expect(trail({ limit: 1001 })).rejects.toMatchObject({ extensions: { code: "BAD_USER_INPUT", field: "limit" } });
    await expect(trail({ after: "ten" })).rejects.toMatchObject({ extensions: { code: "BAD_USER_INPUT", field: "after" } });
  });

  it("exports the filtered trail as XLSX, every text a constant (no formula), and records the export", async () => {
    // An officer whose username a spreadsheet would read as a formula, were it written as one.
    const mallory: Identity = {
      subject: "mallory-subject",
      client: "compliance-console",
      username: '=HYPERLINK("http://evil.example","x")',
      roles: ["proofs:read", "proofs:assess"],
    };
    const proof = await requestMedia();
    await run(mallory, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "+1+cmd|' /C calc'!A0") { id } } }`, { id: proof.id });
    const filter = { proofId: proof.id };
    // The export holds the chain as it stands when it starts: wait for the hold's entry to be chained.
    await everyEntryChained();
    const expected = (await trail({ filter })).entries;
    const file = Buffer.from(
      (await run(auditor, `query($filter: AopdAuditTrailFilterInput) { aopd { auditTrailAsXlsx(filter: $filter) } }`, { filter })).auditTrailAsXlsx as string,
      "base64",
    );
    const [sheet] = readWorkbook(file);
    expect(sheet!.name).toBe("Audit trail");
    expect(sheet!.rows[0]!.map((cell) => cell?.v)).toEqual([
      "Seq",
      "Time (UTC)",
      "Action",
      "Proof",
      "Actor subject",
      "Actor username",
      "Actor client",
      "System",
      "Request id",
      "Trace id",
      "Details",
      "Hash",
      "Previous hash",
    ]);
    expect(sheet!.rows.slice(1).map((row) => [row[0]?.v, row[2]?.v, row[5]?.v ?? null, row[11]?.v])).toEqual(
      expected.map((entry) => [entry.seq, entry.action, entry.actor.username, (entry as Entry & { hash: string }).hash]),
    );
    expect(
      sheet!.rows
        .slice(1)
        .flat()
        .every((cell) => cell === null || cell.f === undefined),
    ).toBe(true);
    expect(worksheetXml(file).join("")).not.toMatch(/<f[ >]/);
    const recorded = (await trail({ filter: { actions: ["AUDIT_TRAIL_EXPORTED"], actorSubject: auditor.subject } })).entries.at(-1)!;
    expect(JSON.parse(recorded.details)).toEqual({ via: "auditTrailAsXlsx", filter: JSON.stringify(filter), rows: expected.length, outcome: "complete" });
    const everything = await aopd.queryAs(auditor, `{ aopd { auditTrailAsXlsx } }`);
    expect(everything.body.errors).toBeUndefined();
    // Past the export's row limit: refused before a byte is written.
    await expect(exportAuditTrailAsXlsx(aopd.services.db, null, 2)).rejects.toMatchObject({
      extensions: { code: "LIMIT_EXCEEDED", limit: "maxExportRows", allowed: 2 },
    });
    const denied = await aopd.queryAs(alice, `{ aopd { auditTrailAsXlsx } }`);
    expect(denied.body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
  });

  it("refuses the trail and a proof's history to a caller without audit:read, and legal holds without proofs:assess", async () => {
    const denied = await aopd.queryAs(alice, `{ aopd { auditTrail { entries { seq } } } }`);
    expect(denied.body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
    const proof = await requestMedia();
    const history = await aopd.queryAs(
      requester,
      `query($id: String!) { aopd { proofs(limit: 1, filter: { is: { any: { id: { eq: $id } } } }) { ... on AopdMediaProof { history { seq } } } } }`,
      { id: proof.id },
    );
    expect(history.body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
    const hold = await aopd.queryAs(requester, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "x") { id } } }`, { id: proof.id });
    expect(hold.body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
    await expect(run(alice, `mutation($id: ID!) { aopd { liftLegalHold(id: $id, reason: "none") { id } } }`, { id: proof.id })).rejects.toMatchObject({
      extensions: { code: "CONFLICT" },
    });
    await expect(run(alice, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "  ") { id } } }`, { id: proof.id })).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "reason" },
    });
  });

  it("refuses UPDATE, DELETE and TRUNCATE of entries, and a proof's deletion within retention or on hold", async () => {
    const db = aopd.services.db;
    await expect(sql`UPDATE aopd_audit_entry SET details = '{}' WHERE seq = 1`.execute(db)).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(sql`DELETE FROM aopd_audit_entry WHERE seq = 1`.execute(db)).rejects.toThrow(/append-only: DELETE refused/);
    await expect(sql`TRUNCATE aopd_audit_entry`.execute(db)).rejects.toThrow(/append-only: TRUNCATE refused/);
    const proof = await requestMedia();
    await expect(sql`DELETE FROM aopd_proof WHERE id = ${proof.id}`.execute(db)).rejects.toThrow(/within its retention of 5 years/);
    await run(alice, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "investigation") { id } } }`, { id: proof.id });
    await db
      .updateTable("aopd_proof")
      .set({ updated_at: new Date("2015-01-01T00:00:00Z") })
      .where("id", "=", proof.id)
      .execute();
    await expect(sql`DELETE FROM aopd_proof WHERE id = ${proof.id}`.execute(db)).rejects.toThrow(/on legal hold/);
  });

  it("names the first entry edited, deleted or moved by a superuser", async () => {
    const db = aopd.services.db;
    // No entry waiting: the sequencer would move the head while the tampered transactions look at it.
    await everyEntryChained();
    expect(await verifyAuditTrail(db, { batchSize: 4 })).toMatchObject({ mismatch: null });
    await inRolledBackTransaction(db, async (trx) => {
      await sql`UPDATE aopd_audit_entry SET details = '{"outcome":"VERIFIED"}' WHERE seq = 5`.execute(trx);
      expect(await verifyAuditTrail(trx, { batchSize: 4 })).toMatchObject({
        verified: 4,
        mismatch: { seq: "5", problem: expect.stringMatching(/has been changed/) },
      });
    });
    await inRolledBackTransaction(db, async (trx) => {
      await sql`DELETE FROM aopd_audit_entry WHERE seq = 7`.execute(trx);
      expect(await verifyAuditTrail(trx, { batchSize: 4 })).toMatchObject({
        verified: 6,
        mismatch: { seq: "7", problem: expect.stringMatching(/is missing/) },
      });
    });
    await inRolledBackTransaction(db, async (trx) => {
      // Entries 3 and 4 swap places, each keeping its own content and hash.
      await sql`UPDATE aopd_audit_entry SET seq = 1000000000 WHERE seq = 3`.execute(trx);
      await sql`UPDATE aopd_audit_entry SET seq = 3 WHERE seq = 4`.execute(trx);
      await sql`UPDATE aopd_audit_entry SET seq = 4 WHERE seq = 1000000000`.execute(trx);
      expect(await verifyAuditTrail(trx, { batchSize: 4 })).toMatchObject({
        verified: 2,
        mismatch: { seq: "3", problem: expect.stringMatching(/does not follow its predecessor/) },
      });
    });
    await inRolledBackTransaction(db, async (trx) => {
      // bigint: a string from pg, a number from PGlite.
      const seq = String((await trx.selectFrom("aopd_audit_head").select("seq").executeTakeFirstOrThrow()).seq);
      await sql`DELETE FROM aopd_audit_entry WHERE seq = ${seq}`.execute(trx);
      expect(await verifyAuditTrail(trx)).toMatchObject({ mismatch: { seq, problem: expect.stringMatching(/is missing: the trail ends at/) } });
    });
    expect(await verifyAuditTrail(db)).toMatchObject({ mismatch: null });
  });
});
