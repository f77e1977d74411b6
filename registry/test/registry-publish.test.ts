import { createLocalJWKSet, compactVerify, type JSONWebKeySet } from "jose";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySupergraphSignature } from "../src/index.js";
import { kybConflicting, kybV1, kycV1, kycWithoutNote, kycWithoutNoteAndLevel, kycWithRiskScore } from "./fixtures/kyc-schemas.js";
import { gateway, otherTeam, publisher, startTestRegistry, type TestRegistry } from "./support/start-test-registry.js";

const kycUrl = "http://kyc.internal:4100/graphql";
const thisHour = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
const hash = (seed: string) => seed.repeat(64).slice(0, 64);

describe("the schema registry: publish, check, usage, history, rollback, remove, owners", () => {
  let test: TestRegistry;
  beforeAll(async () => {
    test = await startTestRegistry("registry_publish");
  });
  afterAll(async () => {
    await test?.registry.close();
  });

  it("answers 404 before anything is published", async () => {
    const answer = await test.call(undefined, "GET", "/supergraph");
    expect(answer).toEqual({ status: 404, body: { error: "nothing_published", reason: "No supergraph is published yet." } });
  });

  it("publishes a first subgraph as version 1, signed with the published key, and answers a repeat the same", async () => {
    const first = await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyc", url: kycUrl, schema: kycV1 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ published: true, version: 1, check: { safe: true, servedVersion: null, compositionErrors: [] } });
    const again = await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyc", url: kycUrl, schema: kycV1 });
    expect(again.body).toMatchObject({ published: true, version: 1, unchanged: true });

    const response = await fetch(`${test.registry.url}/supergraph`);
    expect(response.headers.get("etag")).toBe('"1"');
    const served = (await response.json()) as { version: number; supergraph: string; routes: string; signature: string };
    expect(served.version).toBe(1);
    expect(served.supergraph).toContain("kycStatus(address: String!, level: KycLevel): KycStatus");
    expect(JSON.parse(served.routes)).toEqual([]);
    const keys = (await (await fetch(`${test.registry.url}/.well-known/registry-keys.json`)).json()) as JSONWebKeySet;
    expect(keys.keys).toHaveLength(1);
    expect(keys.keys[0]).not.toHaveProperty("d");
    const claims = await verifySupergraphSignature(keys, served);
    expect(claims.version).toBe(1);
    const { protectedHeader } = await compactVerify(served.signature, createLocalJWKSet(keys));
    expect(protectedHeader).toEqual({ alg: "ES256", kid: test.registry.signingKey.kid });
    // A supergraph changed on the way (or in the store) does not verify.
    await expect(verifySupergraphSignature(keys, { ...served, supergraph: served.supergraph.replace("KycStatus", "KycStatuz") })).rejects.toThrow(
      /does not match/,
    );

    const unchanged = await fetch(`${test.registry.url}/supergraph`, { headers: { "if-none-match": '"1"' } });
    expect(unchanged.status).toBe(304);
  });

  it("classifies an added field as safe", async () => {
    const check = await test.call(publisher, "POST", "/registry/subgraphs/check", { name: "kyc", url: kycUrl, schema: kycWithRiskScore });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ safe: true, servedVersion: 1, usage: [] });
    expect(check.body.changes).toEqual([expect.objectContaining({ level: "safe", type: "FIELD_ADDED", coordinate: "KycStatus.riskScore" })]);
  });

  it("records usage from the gateway only, and refuses a wrong report whole", async () => {
    const reports = [
      {
        operationHash: hash("a"),
        client: "officers-console",
        hour: thisHour(),
        count: 5,
        coordinates: ["Query", "Query.kycStatus", "Query.kycStatus.address", "KycStatus", "KycStatus.note"],
      },
      { operationHash: hash("b"), client: "kyc-app", hour: thisHour(), count: 7, coordinates: ["Query.kycStatus", "KycStatus.note", "KycStatus.verified"] },
      {
        operationHash: hash("a"),
        client: "officers-console",
        hour: thisHour(),
        count: 3,
        coordinates: ["Query", "Query.kycStatus", "Query.kycStatus.address", "KycStatus", "KycStatus.note"],
      },
    ];
    expect(await test.call(publisher, "POST", "/usage", { reports })).toMatchObject({ status: 403, body: { error: "forbidden" } });
    expect(await test.call(undefined, "POST", "/usage", { reports })).toMatchObject({ status: 401 });
    const wrong = await test.call(gateway, "POST", "/usage", { reports: [{ ...reports[0], hour: "2026-11-27T15:30:00.000Z" }] });
    expect(wrong).toEqual({
      status: 400,
      body: { error: "invalid_input", reason: "reports[0].hour must be the ISO start of a UTC hour, such as 2026-11-27T15:00:00.000Z." },
    });
    expect(await test.call(gateway, "POST", "/usage", { reports })).toEqual({ status: 202, body: { accepted: 3 } });
  });

  it("checks a removed field against recorded usage, naming the coordinate, the requests and the clients", async () => {
    const check = await test.call(publisher, "POST", "/registry/subgraphs/check", { name: "kyc", url: kycUrl, schema: kycWithoutNote });
    expect(check.body).toMatchObject({
      safe: false,
      compositionErrors: [],
      usage: [{ coordinate: "KycStatus.note", requests: 15, clients: ["kyc-app", "officers-console"] }],
    });
    expect(check.body.changes).toEqual([expect.objectContaining({ level: "breaking", type: "FIELD_REMOVED", coordinate: "KycStatus.note" })]);
  });

  it("refuses to publish a breaking change in use; --force needs a reason, which the history keeps", async () => {
    const refused = await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyc", url: kycUrl, schema: kycWithoutNote });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ published: false, check: { safe: false } });
    expect((await fetch(`${test.registry.url}/supergraph`, { headers: { "if-none-match": '"1"' } })).status).toBe(304);
    const noReason = await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyc", url: kycUrl, schema: kycWithoutNote, force: true });
    expect(noReason).toMatchObject({ status: 400, body: { error: "invalid_input" } });
    const forced = await test.call(publisher, "POST", "/registry/subgraphs/publish", {
      name: "kyc",
      url: kycUrl,
      schema: kycWithoutNote,
      force: true,
      reason: "the console stopped reading note in release 42",
    });
    expect(forced.body).toMatchObject({ published: true, version: 2, forced: true });
    const history = await test.call(publisher, "GET", "/registry/subgraphs/history?name=kyc");
    expect(history.body.versions).toEqual([
      expect.objectContaining({
        version: 2,
        subgraph: "kyc",
        action: "publish",
        client: "dev-api-client",
        subject: "service-account-dev-api-client",
        reason: "the console stopped reading note in release 42",
      }),
      expect.objectContaining({ version: 1, subgraph: "kyc", action: "publish", reason: null }),
    ]);
    expect((history.body.versions as { diff: { usage: unknown[] } }[])[0]?.diff.usage).toEqual([
      { coordinate: "KycStatus.note", requests: 15, clients: ["kyc-app", "officers-console"] },
    ]);
  });

  it("publishes a breaking change nobody uses", async () => {
    const published = await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyc", url: kycUrl, schema: kycWithoutNoteAndLevel });
    expect(published.body).toMatchObject({ published: true, version: 3, check: { safe: true, usage: [] } });
    expect((published.body.check as { changes: { level: string; coordinate: string }[] }).changes).toEqual([
      expect.objectContaining({ level: "breaking", coordinate: "KycStatus.level" }),
    ]);
  });

  it("names the subgraphs and the coordinate when composition fails, and publishes nothing", async () => {
    const check = await test.call(otherTeam, "POST", "/registry/subgraphs/check", { name: "kyb", url: "http://kyb.internal/graphql", schema: kybConflicting });
    expect(check.body.safe).toBe(false);
    expect(check.body.compositionErrors).toContainEqual(
      expect.objectContaining({ code: "FIELD_TYPE_MISMATCH", subgraphs: ["kyb", "kyc"], coordinates: ["KycStatus.verified"] }),
    );
    const forced = await test.call(otherTeam, "POST", "/registry/subgraphs/publish", {
      name: "kyb",
      url: "http://kyb.internal/graphql",
      schema: kybConflicting,
      force: true,
      reason: "try",
    });
    expect(forced.status).toBe(409);
  });

  it("keeps a subgraph to its owners; schema:admin changes them", async () => {
    const notOwner = await test.call(otherTeam, "POST", "/registry/subgraphs/publish", { name: "kyc", url: kycUrl, schema: kycV1 });
    expect(notOwner).toMatchObject({ status: 403, body: { error: "not_owner" } });
    expect(notOwner.body.reason).toContain("owned by dev-api-client; the client kyc-pipeline may not change it");
    const kyb = await test.call(otherTeam, "POST", "/registry/subgraphs/publish", { name: "kyb", url: "http://kyb.internal/graphql", schema: kybV1 });
    expect(kyb.body).toMatchObject({ published: true, version: 4 });
    expect(
      await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyb", url: "http://kyb.internal:81/graphql", schema: kybV1 }),
    ).toMatchObject({ status: 403, body: { error: "not_owner" } });
    expect(await test.call(otherTeam, "POST", "/registry/owners/set", { name: "kyb", owners: ["kyc-pipeline", "dev-api-client"] })).toMatchObject({
      status: 403,
      body: { error: "forbidden", reason: "The role schema:admin is required." },
    });
    expect(await test.call(publisher, "POST", "/registry/owners/set", { name: "kyb", owners: ["kyc-pipeline", "dev-api-client"] })).toEqual({
      status: 200,
      body: { name: "kyb", owners: ["dev-api-client", "kyc-pipeline"] },
    });
    // The change is in kyb's history, append-only: who, when, from which owners to which; a repeat records nothing.
    const changedBy = Date.now();
    expect(await test.call(publisher, "POST", "/registry/owners/set", { name: "kyb", owners: ["kyc-pipeline", "dev-api-client"] })).toMatchObject({
      status: 200,
    });
    const history = await test.call(publisher, "GET", "/registry/subgraphs/history?name=kyb");
    expect(history.body.ownerChanges).toEqual([
      {
        subgraph: "kyb",
        subject: "service-account-dev-api-client",
        client: "dev-api-client",
        at: expect.any(String) as string,
        from: ["kyc-pipeline"],
        to: ["dev-api-client", "kyc-pipeline"],
      },
    ]);
    const at = Date.parse((history.body.ownerChanges as { at: string }[])[0]?.at ?? "");
    expect(at).toBeGreaterThan(changedBy - 60_000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect((await test.call(publisher, "GET", "/registry/subgraphs/history?name=kyc")).body.ownerChanges).toEqual([]);
    await expect(pgQuery(test.databaseUrl, "UPDATE registry_owner_change SET owners_after = '{kyc-pipeline}'")).rejects.toThrow(/append-only/);
    await expect(pgQuery(test.databaseUrl, "DELETE FROM registry_owner_change")).rejects.toThrow(/append-only/);
    expect(
      (await test.call(publisher, "POST", "/registry/subgraphs/publish", { name: "kyb", url: "http://kyb.internal:81/graphql", schema: kybV1 })).body,
    ).toMatchObject({ published: true, version: 5 });
    const list = await test.call(publisher, "GET", "/registry/subgraphs/list");
    expect(list.body.subgraphs).toEqual([
      expect.objectContaining({ name: "kyb", url: "http://kyb.internal:81/graphql", owners: ["dev-api-client", "kyc-pipeline"] }),
      expect.objectContaining({ name: "kyc", url: kycUrl, owners: ["dev-api-client"] }),
    ]);
    expect(await test.call({ ...publisher, roles: [] }, "GET", "/registry/subgraphs/list")).toMatchObject({ status: 403, body: { error: "forbidden" } });
  });

  it("rolls back as a new version serving an earlier supergraph, and removes a subgraph; the history is append-only", async () => {
    const first = await pgQuery(test.databaseUrl, "SELECT supergraph FROM registry_version WHERE version = 1");
    const rolled = await test.call(publisher, "POST", "/registry/subgraphs/rollback", { to: 1 });
    // kyb belongs to kyc-pipeline and dev-api-client both, so dev-api-client may roll it away.
    expect(rolled).toEqual({ status: 200, body: { version: 6, rolledBackTo: 1 } });
    const served = (await (await fetch(`${test.registry.url}/supergraph`)).json()) as { version: number; supergraph: string };
    expect(served).toMatchObject({ version: 6, supergraph: first.rows[0]?.supergraph });
    expect((await test.call(publisher, "GET", "/registry/subgraphs/list")).body.subgraphs).toEqual([expect.objectContaining({ name: "kyc" })]);
    expect(await test.call(publisher, "POST", "/registry/subgraphs/rollback", { to: 99 })).toMatchObject({ status: 404, body: { error: "not_found" } });

    expect(await test.call(otherTeam, "POST", "/registry/subgraphs/publish", { name: "kyb", url: "http://kyb.internal/graphql", schema: kybV1 })).toMatchObject(
      { body: { published: true, version: 7 } },
    );
    const removed = await test.call(otherTeam, "POST", "/registry/subgraphs/remove", { name: "kyb" });
    expect(removed.body).toMatchObject({ published: true, version: 8 });
    expect(await test.call(publisher, "POST", "/registry/subgraphs/remove", { name: "kyc" })).toMatchObject({
      status: 409,
      body: { published: false, check: { compositionErrors: [expect.objectContaining({ code: "NO_SUBGRAPHS" })] } },
    });

    const versions = (await test.call(publisher, "GET", "/registry/subgraphs/history")).body.versions as { version: number; action: string }[];
    expect(versions.map(({ version, action }) => `${version} ${action}`)).toEqual([
      "8 remove",
      "7 publish",
      "6 rollback",
      "5 publish",
      "4 publish",
      "3 publish",
      "2 publish",
      "1 publish",
    ]);
    await expect(pgQuery(test.databaseUrl, "UPDATE registry_version SET reason = 'rewritten' WHERE version = 2")).rejects.toThrow(/append-only/);
    await expect(pgQuery(test.databaseUrl, "DELETE FROM registry_version WHERE version = 1")).rejects.toThrow(/append-only/);
  });

  it("refuses bad input naming the field, and changes nothing", async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: "KYC", url: kycUrl, schema: kycV1 }, /^name must be a subgraph name/],
      [{ name: "kyc", url: "ftp://x", schema: kycV1 }, /^url must be the subgraph's http\(s\) routing URL/],
      [{ name: "kyc", url: kycUrl, schema: "" }, /^schema must be the subgraph's SDL text/],
      [{ name: "kyc", url: kycUrl, schema: kycV1, routes: [{ path: "/registry/x" }] }, /^routes\[0\]\.path must not overlap the gateway's own paths/],
      [{ name: "kyc", url: kycUrl, schema: kycV1, routes: [{ path: "/kyc/files/", subgraph: "aopd" }] }, /^routes\[0\]\.subgraph must be kyc/],
    ];
    for (const [body, reason] of cases) {
      const answer = await test.call(publisher, "POST", "/registry/subgraphs/publish", body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("invalid_input");
      expect(answer.body.reason).toMatch(reason);
    }
    const malformed = await fetch(`${test.registry.url}/registry/subgraphs/publish`, {
      method: "POST",
      headers: { authorization: `Bearer ${await test.tokenFor(publisher)}` },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(((await (await fetch(`${test.registry.url}/supergraph`)).json()) as { version: number }).version).toBe(8);
  });
});

async function pgQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
