import type { Identity } from "@compliance-graph/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxPortalLinksPerProof } from "../../src/kinds/issue-portal-link.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { bitcoinAsset, portalApi } from "../support/portal-client.js";
import { databaseDrivers } from "../support/test-database.js";

const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const requester: Identity = { subject: "7a1e-carol", client: "compliance-console", username: "carol", roles: ["proofs:read", "proofs:write"] };
const assessor: Identity = { subject: "3f0c-alice", client: "compliance-console", username: "alice", roles: ["proofs:read", "proofs:assess"] };

interface PortalLink {
  portalUrl: string;
  aoppUri: string | null;
  proof: { id: string; status: string; updatedAt: string };
}
const issue = `mutation($id: ID!) { aopd { issuePortalLink(id: $id) { portalUrl aoppUri proof { id status updatedAt } } } }`;
const tokenOf = (url: string) => url.split("/").pop()!;

/**
 * A new portal link for a pending proof (`issuePortalLink`, docs/portal.md): the new credential
 * replaces the old, so the links handed out before stop working; bounded (pending and before its
 * due time, at most `maxPortalLinksPerProof` new links); each one on the audit trail.
 */
describe.each(databaseDrivers)("a new portal link for a pending proof on %s", (driver) => {
  let aopd: AopdWithOfficers;

  const request = async (kind: "signature" | "media", key?: string) => {
    const mutation =
      kind === "signature"
        ? `mutation($input: AopdRequestAoppProofInput!, $key: String) { aopd { r: requestAoppProof(input: $input, idempotencyKey: $key) { portalUrl aoppUri proof { id updatedAt } } } }`
        : `mutation($input: AopdRequestMediaProofInput!, $key: String) { aopd { r: requestMediaProof(input: $input, idempotencyKey: $key) { portalUrl id updatedAt } } }`;
    const { body } = await aopd.queryAs(requester, mutation, {
      input: { customerId: "CUST-LINKS", asset: bitcoinAsset, expectedAddress: address },
      key: key ?? null,
    });
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    const answer = (
      body.data!.aopd as { r: { portalUrl: string; aoppUri?: string; id?: string; updatedAt?: string; proof?: { id: string; updatedAt: string } } }
    ).r;
    return {
      id: answer.proof?.id ?? answer.id!,
      updatedAt: answer.proof?.updatedAt ?? answer.updatedAt!,
      portalUrl: answer.portalUrl,
      aoppUri: answer.aoppUri,
    };
  };
  const issueAs = async (identity: Identity, id: string) => {
    const { body } = await aopd.queryAs(identity, issue, { id });
    return { link: (body.data?.aopd as { issuePortalLink: PortalLink } | undefined)?.issuePortalLink, errors: body.errors };
  };
  const trail = async (proofId: string) =>
    (
      await aopd.services.db
        .selectFrom("aopd_audit_entry")
        .select(["action", "actor_subject", "details"])
        .where("proof_id", "=", proofId)
        .where("action", "=", "PORTAL_LINK_ISSUED")
        .orderBy("insertion")
        .execute()
    ).map((entry) => [entry.action, entry.actor_subject, JSON.parse(entry.details) as unknown]);

  beforeAll(async () => {
    aopd = await startAopdWithOfficers(driver);
    // Starting aopd migrates a fresh database: minutes on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("gives a signature proof a new portal URL and AOPP URI that work, and the old ones stop working", async () => {
    const first = await request("signature");
    expect((await portalApi(aopd, tokenOf(first.portalUrl))).status).toBe(200);

    const { link, errors } = await issueAs(requester, first.id);
    expect(errors).toBeUndefined();
    expect(link!.proof).toEqual({ id: first.id, status: "PENDING", updatedAt: first.updatedAt });
    expect(link!.portalUrl).not.toBe(first.portalUrl);
    const token = tokenOf(link!.portalUrl);
    // The AOPP URI's callback carries the new credential too.
    expect(new URL(link!.aoppUri!).searchParams.get("callback")).toMatch(new RegExp(`/${token}$`));
    expect(await portalApi(aopd, token)).toMatchObject({ status: 200, body: { id: first.id, status: "PENDING" } });
    expect((await portalApi(aopd, tokenOf(first.portalUrl))).status).toBe(404);
    expect(await trail(first.id)).toEqual([["PORTAL_LINK_ISSUED", requester.subject, { kind: "signature", linkNumber: 2 }]]);
  });

  it("gives a media proof a new portal URL and no AOPP URI", async () => {
    const first = await request("media");
    const { link } = await issueAs(requester, first.id);
    expect(link!.aoppUri).toBeNull();
    expect((await portalApi(aopd, tokenOf(link!.portalUrl))).status).toBe(200);
    expect((await portalApi(aopd, tokenOf(first.portalUrl))).status).toBe(404);
  });

  it(`gives at most ${maxPortalLinksPerProof} new links per proof, and only to a proof still waiting before its due time`, async () => {
    const first = await request("media");
    for (let i = 0; i < maxPortalLinksPerProof; i += 1) expect((await issueAs(requester, first.id)).errors).toBeUndefined();
    const beyond = await issueAs(requester, first.id);
    expect(beyond.errors?.[0]).toMatchObject({ extensions: { code: "CONFLICT" }, message: expect.stringContaining("request a new proof") });
    expect((await trail(first.id)).map(([, , details]) => (details as { linkNumber: number }).linkNumber)).toEqual([2, 3, 4, 5, 6]);

    const overdue = await request("media");
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ due_at: new Date(Date.now() - 60_000) })
      .where("id", "=", overdue.id)
      .execute();
    expect((await issueAs(requester, overdue.id)).errors?.[0]).toMatchObject({ extensions: { code: "CONFLICT" } });

    const decided = await request("media");
    await aopd.services.db.updateTable("aopd_proof").set({ status: "EXPIRED" }).where("id", "=", decided.id).execute();
    expect((await issueAs(requester, decided.id)).errors?.[0]).toMatchObject({ extensions: { code: "CONFLICT", status: "EXPIRED" } });
    expect(await trail(overdue.id)).toEqual([]);
    expect(await trail(decided.id)).toEqual([]);

    expect((await issueAs(requester, "7d0b6a8e-0000-4000-8000-000000000000")).errors?.[0]).toMatchObject({ extensions: { code: "NOT_FOUND" } });
  });

  it("needs the role that requests proofs (proofs:write)", async () => {
    const first = await request("media");
    expect((await issueAs(assessor, first.id)).errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
    expect((await portalApi(aopd, tokenOf(first.portalUrl))).status).toBe(200);
    expect(await trail(first.id)).toEqual([]);
  });

  it("answers a retry of the first request (same idempotency key) with CONFLICT, not the dead links nor a second proof", async () => {
    const key = `links-retry-${driver}-0123456789`;
    const first = await request("media", key);
    await issueAs(requester, first.id);
    await expect(request("media", key)).rejects.toThrow(/"code":"CONFLICT"/);
    const proofs = await aopd.services.db.selectFrom("aopd_proof").select("id").where("customer_id", "=", "CUST-LINKS").where("id", "=", first.id).execute();
    expect(proofs).toHaveLength(1);
  });
});
