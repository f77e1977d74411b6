import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import { startRegistry, type RunningRegistry } from "../src/index.js";
import { kycV1, kycWithoutNote } from "./fixtures/kyc-schemas.js";
import { gateway, publisher } from "./support/start-test-registry.js";

// `npm start` runs the registry on embedded PGlite: the same store, migrations and queries as on PostgreSQL.
describe("the registry on embedded PGlite", () => {
  let registry: RunningRegistry;
  let mint: (identity: Identity, audience: string) => Promise<string>;
  beforeAll(async () => {
    const key = await generateInternalSigningKey();
    mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
    registry = await startRegistry({
      config: { port: 0, databaseUrl: undefined, dataDir: "memory://" },
      authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [key.publicJwk] }),
    });
  });
  afterAll(async () => {
    await registry?.close();
  });
  const call = async (identity: Identity, path: string, body: unknown) => {
    const response = await fetch(`${registry.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await mint(identity, "registry")}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("publishes, records usage and finds a breaking change in use", async () => {
    expect((await call(publisher, "/registry/subgraphs/publish", { name: "kyc", url: "http://kyc/graphql", schema: kycV1 })).body).toMatchObject({
      published: true,
      version: 1,
    });
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    expect(
      (
        await call(gateway, "/usage", {
          reports: [{ operationHash: "d".repeat(64), client: "officers-console", hour, count: 2, coordinates: ["KycStatus.note"] }],
        })
      ).status,
    ).toBe(202);
    const check = await call(publisher, "/registry/subgraphs/check", { name: "kyc", url: "http://kyc/graphql", schema: kycWithoutNote });
    expect(check.body).toMatchObject({ safe: false, usage: [{ coordinate: "KycStatus.note", requests: 2, clients: ["officers-console"] }] });
  });

  it("records a change of owners in the history", async () => {
    expect((await call(publisher, "/registry/owners/set", { name: "kyc", owners: ["kyc-pipeline"] })).body).toEqual({ name: "kyc", owners: ["kyc-pipeline"] });
    const history = await fetch(`${registry.url}/registry/subgraphs/history?name=kyc`, {
      headers: { authorization: `Bearer ${await mint(publisher, "registry")}` },
    });
    expect(((await history.json()) as { ownerChanges: unknown }).ownerChanges).toEqual([
      expect.objectContaining({ subgraph: "kyc", client: "dev-api-client", from: ["dev-api-client"], to: ["kyc-pipeline"] }),
    ]);
  });
});
