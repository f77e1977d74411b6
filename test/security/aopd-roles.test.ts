import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInternalTokenMinter } from "@compliance-graph/identity";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { postGraphQL, startStack, type Stack } from "../support/start-stack.js";

/**
 * The attack: a client whose token carries no proof role reads proofs, either through the gateway
 * or by reaching the aopd subgraph directly with an internal token minted for fewer roles. The
 * roles declared in aopd's schema hold on both paths.
 */
describe("roles on the real aopd subgraph", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      realAopd: { databaseUrl: await createTestDatabase("aopdroles"), seedDemoProofs: 3 },
      extraClients: [{ clientId: "travel-only", clientSecret: "travel-secret", roles: ["travel-rule:read"] }],
    });
  });
  afterAll(() => stack?.close());

  it("refuses proofs to a token without proofs:read at the gateway, naming the role", async () => {
    const token = await stack.fetchToken("travel-only", "travel-secret");
    const { status, body } = await stack.query("{ aopd { proofsCount } }", token);
    expect(status).toBe(403);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN", requiredRole: "proofs:read" } });
    const allowed = await stack.query("{ trpd { vasps { name } } }", token);
    expect(allowed.body.errors).toBeUndefined();
  });

  it("refuses proof writes to a token without proofs:write, before aopd is called", async () => {
    const token = await stack.fetchToken("travel-only", "travel-secret");
    const { status, body } = await stack.query(
      `mutation { aopd { requestSatoshiProof(input: { customerId: "C", asset: DTI4H95J0R2X, senderAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h" }) { id } } }`,
      token,
    );
    expect(status).toBe(403);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN", requiredRole: "proofs:write" } });
    const count = await stack.query("{ aopd { proofsCount } }", await stack.fetchToken());
    expect(count.body.data).toEqual({ aopd: { proofsCount: 3 } });
  });

  it("refuses them again at the subgraph when an internal token lacks the role", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
    const internal = await mint({ subject: "intruder", client: "travel-only", roles: ["travel-rule:read"] }, "aopd");
    const { body } = await postGraphQL(stack.subgraphUrls.aopd, "{ aopd { proofsCount } }", internal);
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN", requiredRole: "proofs:read" } });
    const reader = await mint({ subject: "reader", client: "reader", roles: ["proofs:read"] }, "aopd");
    const ok = await postGraphQL(stack.subgraphUrls.aopd, "{ aopd { proofsCount } }", reader);
    expect(ok.body.data).toEqual({ aopd: { proofsCount: 3 } });
  });
});
