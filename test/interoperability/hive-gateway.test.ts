import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createGatewayRuntime, type GatewayRuntime } from "@graphql-hive/gateway";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeSupergraph } from "@compliance-graph/gateway";
import { createInternalTokenMinter, RequiredRoles } from "@compliance-graph/identity";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { postGraphQL, startStack, type Stack } from "../support/start-stack.js";

/**
 * Our subgraphs are standard Federation 2 subgraphs: `supergraph.yaml`, composed as rover would,
 * is served by The Guild's Hive Gateway, and the operations a compliance team runs return the same
 * data through it as through our gateway. Hive Gateway does not mint identities, so it sends each
 * subgraph a fixed internal token (its `transportEntries.<name>.headers`); the subgraphs' checks
 * stay on.
 */
const supergraphYaml = fileURLToPath(new URL("../../supergraph.yaml", import.meta.url));

const filter = { is: { any: { status: ["PENDING", "SUBMITTED", "VERIFIED"] } } };
const sortOrder = [{ field: "CREATED_AT", direction: "DESC" }];
const pageFields = "__typename id createdAt address customerId asset status comment ... on AopdSignatureProof { message signature }";
const operations: { name: string; query: string; variables?: Record<string, unknown> }[] = [
  {
    name: "a filtered, sorted page of proofs",
    query: `query ($filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) { aopd { proofs(limit: 50, filter: $filter, sortOrder: $sortOrder) { ${pageFields} } } }`,
    variables: { filter, sortOrder },
  },
  {
    name: "the page joined with trpd's travel-rule transfers",
    query: `query ($filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) { aopd { proofs(limit: 50, filter: $filter, sortOrder: $sortOrder) { id address travelRuleTransfers { counterpartyVasp direction address } } } }`,
    variables: { filter, sortOrder },
  },
  {
    name: "the count for the pager",
    query: "query ($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) all: proofsCount } }",
    variables: { filter },
  },
  { name: "both subgraphs' root fields", query: "{ aopd { proofsCount } trpd { vasps { name } } }" },
];

describe("Hive Gateway serving the composed supergraph.yaml", () => {
  let stack: Stack;
  let token: string;
  let hive: GatewayRuntime;
  let hiveServer: Server;
  let hiveUrl: string;
  // Hive Gateway's logger refuses pino's "silent", which the test run sets; "error" means the same here.
  const logLevel = process.env.LOG_LEVEL;

  beforeAll(async () => {
    process.env.LOG_LEVEL = "error";
    stack = await startStack({ realAopd: { databaseUrl: await createTestDatabase("hive-interop"), seedDemoProofs: 60 } });
    token = await stack.fetchToken();
    const supergraph = await composeSupergraph(supergraphYaml);
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk, ttlSeconds: 3_600 });
    const identity = { subject: "hive-gateway", client: "hive-gateway", roles: RequiredRoles.fromDocument(parse(supergraph)).declaredRoles() };
    const entry = async (name: "aopd" | "trpd") => ({
      location: stack.subgraphUrls[name],
      headers: [["authorization", `Bearer ${await mint(identity, name)}`]] as [string, string][],
    });
    hive = createGatewayRuntime({
      supergraph,
      transportEntries: { aopd: await entry("aopd"), trpd: await entry("trpd") },
      logging: false,
    });
    hiveServer = createServer(hive);
    await new Promise<void>((resolve) => hiveServer.listen(0, "127.0.0.1", resolve));
    hiveUrl = `http://127.0.0.1:${(hiveServer.address() as AddressInfo).port}/graphql`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      if (!hiveServer) return resolve();
      hiveServer.close(() => resolve());
      hiveServer.closeAllConnections();
    });
    await hive?.dispose();
    await stack?.close();
    process.env.LOG_LEVEL = logLevel;
  });

  for (const operation of operations) {
    it(`returns the same data as our gateway for ${operation.name}`, async () => {
      const ours = await stack.query(operation.query, token, operation.variables);
      const theirs = await postGraphQL(hiveUrl, operation.query, undefined, operation.variables);
      expect(ours.body.errors).toBeUndefined();
      expect(theirs.body.errors).toBeUndefined();
      expect(theirs.status).toBe(200);
      expect(theirs.body.data).toEqual(ours.body.data);
    });
  }

  it("really reaches the subgraphs: the page is full and some proofs have transfers", async () => {
    const { body } = await postGraphQL(hiveUrl, operations[1]!.query, undefined, operations[1]!.variables);
    const proofs = (body.data?.aopd as { proofs: { travelRuleTransfers: unknown[] }[] }).proofs;
    expect(proofs.length).toBeGreaterThan(0);
    expect(proofs.some((proof) => proof.travelRuleTransfers.length > 0)).toBe(true);
  });

  it("is refused by the subgraphs without the internal token, like any other caller", async () => {
    const direct = await postGraphQL(stack.subgraphUrls.aopd, "{ aopd { proofsCount } }", undefined);
    expect(direct.status).toBe(401);
  });
});
