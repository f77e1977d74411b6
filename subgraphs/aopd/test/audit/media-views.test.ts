import { createHash } from "node:crypto";
import type { Identity } from "@compliance-graph/identity";
import { pngImage } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordMediaRead } from "../../src/audit/record-media-read.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { portalApi } from "../support/portal-client.js";

const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
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
const bob: Identity = { subject: "8d21-bob", client: "compliance-console", username: "bob", roles: ["proofs:read", "proofs:export"] };

/**
 * Views and downloads of a media file are different actions on the trail, and one officer's views of
 * one file within the view window are one entry (docs/audit-trail.md, "Views and downloads"). On
 * PostgreSQL: the route's advisory lock is what keeps two views at once from both writing.
 */
describe("media views and downloads on the audit trail", () => {
  let aopd: AopdWithOfficers;
  let proofId: string;
  const file = pngImage(24, 16);
  const evidenceHash = `sha256:${createHash("sha256").update(file).digest("hex")}`;

  const read = async (identity: Identity, query = "") => {
    const response = await fetch(new URL(`/aopd/media/${proofId}${query}`, aopd.url), { headers: { authorization: await aopd.authorizationOf(identity) } });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, body };
  };
  const entries = async () =>
    (
      await aopd.services.db
        .selectFrom("aopd_audit_entry")
        .select(["action", "actor_subject", "details"])
        .where("proof_id", "=", proofId)
        .where("action", "in", ["MEDIA_VIEWED", "MEDIA_DOWNLOADED"])
        .orderBy("insertion")
        .execute()
    ).map((entry) => [entry.action, entry.actor_subject, JSON.parse(entry.details) as unknown]);

  beforeAll(async () => {
    aopd = await startAopdWithOfficers("postgres");
    const { body } = await aopd.queryAs(
      requester,
      `mutation($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`,
      {
        input: { customerId: "CUST-VIEWS", asset: bitcoin, expectedAddress: address },
      },
    );
    const requested = (body.data!.aopd as { requestMediaProof: { id: string; portalUrl: string } }).requestMediaProof;
    proofId = requested.id;
    const uploaded = await portalApi(aopd, `${requested.portalUrl.split("/").pop()!}/media`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(file),
    });
    expect(uploaded.status).toBe(200);
    // Starting aopd migrates a fresh database: minutes on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("records one MEDIA_VIEWED per officer and file within the window, however often the screen shows it, and every download", async () => {
    // The detail page drawn five times, two of them at once.
    for (let i = 0; i < 3; i += 1) expect(await read(alice, "?purpose=view")).toEqual({ status: 200, body: file });
    const together = await Promise.all([read(alice, "?purpose=view"), read(alice, "?purpose=view")]);
    expect(together.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await read(bob, "?purpose=view")).toMatchObject({ status: 200 });
    // Downloads, with and without the purpose named: each one is an entry.
    expect(await read(alice)).toEqual({ status: 200, body: file });
    expect(await read(alice, "?purpose=download")).toMatchObject({ status: 200 });
    expect(await read(alice, "?purpose=view")).toMatchObject({ status: 200 });

    const details = { evidenceHash, byteSize: file.length };
    expect(await entries()).toEqual([
      ["MEDIA_VIEWED", alice.subject, details],
      ["MEDIA_VIEWED", bob.subject, details],
      ["MEDIA_DOWNLOADED", alice.subject, details],
      ["MEDIA_DOWNLOADED", alice.subject, details],
    ]);
  });

  it("refuses a purpose it does not know, naming the allowed ones, and records nothing", async () => {
    const before = await entries();
    const response = await fetch(new URL(`/aopd/media/${proofId}?purpose=peek`, aopd.url), { headers: { authorization: await aopd.authorizationOf(alice) } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid_query", reason: 'purpose: "peek" is not allowed; use view or download.' });
    expect(await entries()).toEqual(before);
  });

  it("records every view when the window is 0", async () => {
    const before = (await entries()).length;
    const view = {
      purpose: "view" as const,
      proofId,
      origin: { actor: { subject: alice.subject, client: alice.client, username: alice.username ?? null, system: false }, requestId: null },
      sha256: evidenceHash.slice(7),
      byteSize: file.length,
    };
    await recordMediaRead(aopd.services.db, { ...view, viewWindowSeconds: 0 });
    await recordMediaRead(aopd.services.db, { ...view, viewWindowSeconds: 0 });
    // With the window, the same view again is still the one already recorded.
    await recordMediaRead(aopd.services.db, { ...view, viewWindowSeconds: 1_800 });
    expect((await entries()).length - before).toBe(2);
  });
});
