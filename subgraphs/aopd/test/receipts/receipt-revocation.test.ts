import type { Identity } from "@compliance-graph/identity";
import { ofacSdnListName } from "@compliance-graph/sanctions-lists";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
/** Two addresses no bundled list names, listed by this test's own list version. */
const soonListed = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const listedAtIssue = "bc1qc7slrfxkknqcq2jevvvkdgvrt8080852dfjewde450xdlk4ugp7szw5tk9";

const requester: Identity = { subject: "sa-requests", client: "intake-service", roles: ["proofs:read", "proofs:write"] };
const alice: Identity = { subject: "alice-subject", client: "compliance-console", username: "alice", roles: ["proofs:read", "proofs:assess", "proofs:export"] };

/**
 * Issue 35, attack 6: a receipt states the screening at issue, a proof whose address is LISTED
 * gets none unless AOPD_RECEIPT_FOR_LISTED=issue, and a new list version that lists the address
 * revokes the receipts already issued (the status route tells when and why).
 */
describe.each(databaseDrivers)("receipts and screening on %s", (driver) => {
  let aopd: AopdWithOfficers;
  let issuing: AopdWithOfficers;
  beforeAll(async () => {
    aopd = await startAopdWithOfficers(driver);
    issuing = await startAopdWithOfficers(driver, { receipts: { ...aopd.services.config.receipts, forListed: "issue" } });
  }, 240_000);
  afterAll(async () => {
    await aopd?.close();
    await issuing?.close();
  });

  const run = async (on: AopdWithOfficers, identity: Identity, query: string, variables: Record<string, unknown>) => {
    const { body } = await on.queryAs(identity, query, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return Object.values(body.data!.aopd as Record<string, Record<string, unknown>>)[0]!;
  };
  const verifiedProof = async (on: AopdWithOfficers, address: string) => {
    const { id } = await run(on, requester, `mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id } } }`, {
      input: { customerId: "CUST-REVOKE", asset: bitcoin, senderAddress: address, depositAddress: deposit },
    });
    await run(on, requester, `mutation($id: ID!) { aopd { finalizeSatoshiProof(id: $id, txId: "${"ef".repeat(32)}") { id } } }`, { id });
    await run(on, alice, `mutation($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: VERIFIED) { id } } }`, { id });
    return String(id);
  };
  const receiptOf = (on: AopdWithOfficers, id: string) =>
    run(on, alice, `query($id: ID!) { aopd { proofReceipt(id: $id) { jws } } }`, { id }).then((receipt) => decodeJwt(String(receipt.jws)));
  const statusOf = async (on: AopdWithOfficers, path: unknown) => (await fetch(new URL(String(path), on.url))).json() as Promise<Record<string, unknown>>;
  const listVersion = (on: AopdWithOfficers, addresses: string[]) =>
    importSanctionsList(on.services.db, on.services.config.assets, {
      list: ofacSdnListName,
      publishedOn: "2099-02-01",
      source: "receipt-revocation.test.ts",
      contentHash: addresses.join(",").padEnd(64, "0").slice(0, 64),
      addresses: addresses.map((address, index) => ({ ofacAsset: "XBT", address, family: "bitcoin" as const, sdnUid: `99${index}`, sdnName: "LISTED" })),
    });

  it("revokes a receipt when a new list version lists its address, and issues none for the LISTED proof after", async () => {
    const id = await verifiedProof(aopd, soonListed);
    const claims = await receiptOf(aopd, id);
    expect(claims.proof).toMatchObject({ screening: { status: "CLEAR" } });
    expect(await statusOf(aopd, claims.status)).toMatchObject({ status: "valid" });

    await listVersion(aopd, [soonListed]);
    expect(await statusOf(aopd, claims.status)).toMatchObject({ status: "revoked", reason: "screening_listed", reasonText: expect.stringContaining("LISTED") });
    await expect(receiptOf(aopd, id)).rejects.toMatchObject({
      message: "The proof's address is LISTED by screening; this deployment issues no receipt for a listed address (AOPD_RECEIPT_FOR_LISTED=refuse).",
      extensions: { code: "CONFLICT", screening: "LISTED" },
    });
  });

  it("issues a receipt for a LISTED proof where AOPD_RECEIPT_FOR_LISTED=issue, stating LISTED", async () => {
    await listVersion(issuing, [listedAtIssue]);
    const id = await verifiedProof(issuing, listedAtIssue);
    const claims = await receiptOf(issuing, id);
    expect(claims.proof).toMatchObject({ screening: { status: "LISTED", list: ofacSdnListName, listVersion: "2099-02-01" } });
    expect(await statusOf(issuing, claims.status)).toMatchObject({ status: "valid" });
  });
});
