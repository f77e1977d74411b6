import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { composeSubgraphs } from "@compliance-graph/gateway";
import { aopdStandInSchemaFile } from "../support/aopd-stand-in.js";
import { startStack, type Stack } from "../support/start-stack.js";

describe("supergraph hot reload", () => {
  let stack: Stack;
  let token: string;
  let original: string;
  beforeAll(async () => {
    stack = await startStack({ supergraphPollIntervalMs: 50 });
    token = await stack.fetchToken();
    original = await readFile(stack.supergraphPath, "utf8");
  });
  afterAll(() => stack?.close());

  const servesTrpd = async () => (await stack.query("{ trpd { vasps { name } } }", token)).body.errors === undefined;
  const servesAopd = async () => (await stack.query("{ aopd { proofs { id } } }", token)).body.errors === undefined;

  it("serves a changed supergraph file without a restart", async () => {
    expect(await servesTrpd()).toBe(true);
    const aopdOnly = await composeSubgraphs([{ name: "aopd", routingUrl: "http://localhost:4001/graphql", schemaFile: aopdStandInSchemaFile }]);
    await writeFile(stack.supergraphPath, aopdOnly);
    // The poll notices the change on its own; waitFor only bounds how long the test waits.
    await vi.waitFor(async () => expect(await servesTrpd()).toBe(false), { timeout: 10_000, interval: 50 });
    expect(await servesAopd()).toBe(true);
  });

  it("keeps serving the previous supergraph when the new file is invalid", async () => {
    await writeFile(stack.supergraphPath, "type Query { broken: Nope }");
    await stack.gateway.reloadSupergraph();
    expect(await servesAopd()).toBe(true);
    expect(await servesTrpd()).toBe(false);
  });

  it("loads a valid file again after an invalid one", async () => {
    await writeFile(stack.supergraphPath, original);
    await stack.gateway.reloadSupergraph();
    expect(await servesTrpd()).toBe(true);
  });
});
