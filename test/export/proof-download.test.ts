import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInternalTokenMinter } from "@compliance-graph/identity";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

const statusFilter = { is: { any: { status: ["VERIFIED", "SUBMITTED"] } } };

/**
 * `POST /exports/proofs.xlsx` through the whole stack: the gateway authenticates and authorizes,
 * aopd streams the workbook, the gateway pipes it to the client.
 */
describe("the proof download through the gateway", () => {
  let stack: Stack;
  let downloadUrl: string;

  beforeAll(async () => {
    stack = await startStack({
      realAopd: { databaseUrl: await createTestDatabase("proofdownload"), seedDemoProofs: 400 },
      extraClients: [{ clientId: "reader", clientSecret: "reader-secret", roles: ["proofs:read"] }],
    });
    downloadUrl = `${stack.gateway.baseUrl}/exports/proofs.xlsx`;
  });
  afterAll(() => stack?.close());

  const download = (token: string | undefined, body: unknown) =>
    fetch(downloadUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it.each([
    ["no filter", null],
    ["status", statusFilter],
  ])("sends the bytes proofsAsXlsx answers for the same filter (%s), as an attachment that is not sniffed", async (_name, filter) => {
    const token = await stack.fetchToken();
    const response = await download(token, { filter });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="proofs.xlsx"');
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const file = Buffer.from(await response.arrayBuffer());
    const { body } = await stack.query("query($f: AopdProofFilterInput) { aopd { proofsAsXlsx(filter: $f) } }", token, { f: filter });
    expect(body.errors).toBeUndefined();
    const answered = Buffer.from((body.data!.aopd as { proofsAsXlsx: string }).proofsAsXlsx, "base64");
    expect(file.length).toBeGreaterThan(10_000);
    expect(file.equals(answered)).toBe(true);
  });

  it("refuses a caller without a token with 401", async () => {
    const response = await download(undefined, { filter: null });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "UNAUTHENTICATED" } }] });
  });

  it("refuses a caller with proofs:read but not proofs:export with 403, naming the role", async () => {
    const response = await download(await stack.fetchToken("reader", "reader-secret"), { filter: null });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "FORBIDDEN", requiredRole: "proofs:export" } }] });
  });

  it.each([
    ["an empty status list", { filter: { is: { any: { status: [] } } } }, "filter.is.any.status"],
    ["an unknown status", { filter: { is: { any: { status: ["LOST"] } } } }, "filter.is.any.status.0"],
    ["an unknown field", { filter: { is: { any: { colour: { eq: "red" } } } } }, "filter.is.any"],
    ["a bad instant", { filter: { is: { any: { createdAt: { gte: "yesterday" } } } } }, "filter.is.any.createdAt.gte"],
    ["a key beside filter", { filter: null, limit: 5 }, "limit"],
  ])("refuses %s with 400 and a message naming the field", async (_name, body, field) => {
    const response = await download(await stack.fetchToken(), body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(answer.errors[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", field } });
    expect(answer.errors[0]!.message.startsWith(`${field}: `)).toBe(true);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await fetch(downloadUrl, { method: "POST", headers: { authorization: `Bearer ${await stack.fetchToken()}` }, body: "{filter" });
    expect(response.status).toBe(400);
  });

  it("refuses a direct call to aopd without the gateway's internal token, and one whose token lacks the role", async () => {
    const direct = new URL("/exports/proofs.xlsx", stack.subgraphUrls.aopd);
    const anonymous = await fetch(direct, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
    const reader = await mint({ subject: "reader", client: "reader", roles: ["proofs:read"] }, "aopd");
    const forbidden = await fetch(direct, { method: "POST", headers: { authorization: `Bearer ${reader}` }, body: "{}" });
    expect(forbidden.status).toBe(403);
  });
});
