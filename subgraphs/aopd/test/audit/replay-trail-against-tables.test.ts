import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sql } from "kysely";
import type { Identity } from "@compliance-graph/identity";
import { createTestDatabase, pngImage, pollUntil } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditTrail } from "../../src/audit/verify-audit-trail.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { portalApi } from "../support/portal-client.js";

const verifyAuditCli = fileURLToPath(new URL("../../src/cli/verify-audit.ts", import.meta.url));
const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const requester: Identity = { subject: "sa-requests", client: "intake-service", username: "service-account-intake", roles: ["proofs:read", "proofs:write"] };
const alice: Identity = { subject: "3f0c9a7e-alice", client: "compliance-console", username: "alice", roles: ["proofs:read", "proofs:assess"] };

/** `npm run verify-audit` as an operator runs it, against the test's database (aopd and the CLI share the development audit key). */
async function runVerifyAudit(databaseUrl: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", verifyAuditCli], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      timeout: 120_000,
    });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("verify-audit replays the trail against the tables (issue 35, attack 3)", () => {
  let databaseUrl: string;
  let aopd: AopdWithOfficers;
  const run = async (identity: Identity, query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await aopd.queryAs(identity, query, variables);
    if (body.errors) throw new Error(body.errors[0]!.message);
    return body.data!.aopd as Record<string, unknown>;
  };
  /** A media proof requested and its file uploaded through the portal, as in production; `assessment`: then decided by an officer. */
  const decidedMediaProof = async (assessment: "VERIFIED" | "FAILED" | "undecided") => {
    const requested = (
      await run(requester, `mutation($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`, {
        input: { customerId: "CUST-REPLAY", asset: bitcoin, expectedAddress: address },
      })
    ).requestMediaProof as { id: string; portalUrl: string };
    const upload = await portalApi(aopd, `${requested.portalUrl.split("/").pop()!}/media`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(pngImage(16, 16)),
    });
    expect(upload.status).toBe(200);
    if (assessment === "undecided") return requested.id;
    const reason = assessment === "FAILED" ? ", reason: ADDRESS_NOT_SHOWN" : "";
    await run(alice, `mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: ${assessment}${reason}, comment: "seen") { id } } }`, {
      id: requested.id,
    });
    return requested.id;
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("replaytrail");
    aopd = await startAopdWithOfficers("postgres", { databaseUrl });
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("passes an untouched database, then names an edited decision and a deleted held proof", async () => {
    const edited = await decidedMediaProof("VERIFIED");
    const held = await decidedMediaProof("FAILED");
    const lifted = await decidedMediaProof("VERIFIED");
    const forgedOn = await decidedMediaProof("VERIFIED");
    const undecided = await decidedMediaProof("undecided");
    await run(alice, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "court order 7/2026") { id } } }`, { id: held });
    await run(alice, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "inquiry") { id } } }`, { id: lifted });
    await run(alice, `mutation($id: ID!) { aopd { liftLegalHold(id: $id, reason: "inquiry closed") { id } } }`, { id: lifted });
    await pollUntil(
      "every audit entry chained",
      () => verifyAuditTrail(aopd.services.db),
      (verification) => verification.pending === 0,
      { timeoutMs: 60_000, intervalMs: 50 },
    );

    const untouched = await runVerifyAudit(databaseUrl);
    expect(untouched.output).toMatch(/audit trail whole/);
    expect(untouched.output).toMatch(/the decisions, proofs and legal holds agree with the \d+ entries that record them/);
    expect(untouched.code).toBe(0);

    // As a superuser, behind the append-only and retention triggers: the trail itself is left whole.
    const { decision_id: decisionId } = await aopd.services.db
      .selectFrom("aopd_proof")
      .select("decision_id")
      .where("id", "=", edited)
      .executeTakeFirstOrThrow();
    const forgedDecision = randomUUID();
    await aopd.services.db.transaction().execute(async (trx) => {
      await sql`ALTER TABLE aopd_proof_decision DISABLE TRIGGER ALL`.execute(trx);
      await sql`UPDATE aopd_proof_decision SET outcome = 'FAILED', reason = 'ADDRESS_NOT_SHOWN' WHERE id = ${decisionId}`.execute(trx);
      // A decision in another officer's name that no one made: no entry of the trail records it.
      await sql`
        INSERT INTO aopd_proof_decision (id, proof_id, action, outcome, reason, reason_text, decider_subject, decider_client, decider_username, decider_system)
        VALUES (${forgedDecision}, ${forgedOn}, 'DECIDED', 'FAILED', 'OTHER', 'backdated', 'demo-officer-2', 'console', 'demo-officer-2', false)
      `.execute(trx);
      await sql`ALTER TABLE aopd_proof_decision ENABLE TRIGGER ALL`.execute(trx);
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await sql`DELETE FROM aopd_proof WHERE id = ${held}`.execute(trx);
      // VERIFIED without any decision: only the proof's status says so.
      await sql`UPDATE aopd_proof SET status = 'VERIFIED', assessment = 'VERIFIED' WHERE id = ${undecided}`.execute(trx);
    });

    const tampered = await runVerifyAudit(databaseUrl);
    expect(tampered.output).toMatch(/audit trail whole/);
    expect(tampered.output).toContain(`aopd_proof_decision ${decisionId} (proof ${edited}): outcome: the trail says "VERIFIED" (entry `);
    expect(tampered.output).toMatch(new RegExp(`aopd_proof_decision ${decisionId} \\(proof ${edited}\\): outcome: .*, the table says "FAILED"`));
    expect(tampered.output).toMatch(
      new RegExp(`aopd_proof_decision ${decisionId} \\(proof ${edited}\\): reason: the trail says none \\(entry \\d+\\), the table says "ADDRESS_NOT_SHOWN"`),
    );
    expect(tampered.output).toMatch(new RegExp(`aopd_proof ${held}: the trail says it is on legal hold \\(entry \\d+\\), the table has no such proof`));
    expect(tampered.output).toContain(
      `aopd_proof_decision ${forgedDecision} (proof ${forgedOn}): the table has a DECIDED by demo-officer-2, no entry of the trail records it`,
    );
    expect(tampered.output).toMatch(
      new RegExp(`aopd_proof ${undecided}: status: the trail says "SUBMITTED" \\(SUBMITTED, entry \\d+\\), the table says "VERIFIED"`),
    );
    // Nothing else differs: the untouched proof, its lifted hold, the decisions of the deleted proof (still in their table).
    expect(tampered.output).not.toContain(lifted);
    expect(tampered.code).toBe(1);
  }, 240_000);
});
