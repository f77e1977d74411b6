import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@compliance-graph/test-kit";
import { kycV1, kycWithoutNote, kycWithRiskScore, kybConflicting } from "./fixtures/kyc-schemas.js";
import { gateway, publisher, startTestRegistry, type TestRegistry } from "./support/start-test-registry.js";

const cli = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const thisHour = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();

/** Runs `npm run subgraph -- ...` as a pipeline would: its own process, its exit code and output. */
function subgraph(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", cli, ...args], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

// The registry answers /registry/... itself as the gateway forwards it: here called directly with the internal token the gateway would send.
describe("npm run subgraph: exit codes against a running registry", () => {
  let test: TestRegistry;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    test = await startTestRegistry("registry_cli");
    dir = await mkdtemp(join(tmpdir(), "registry-cli-"));
    for (const [file, text] of Object.entries({
      "v1.graphql": kycV1,
      "risk.graphql": kycWithRiskScore,
      "no-note.graphql": kycWithoutNote,
      "kyb.graphql": kybConflicting,
    }))
      await writeFile(join(dir, file), text);
    await writeFile(join(dir, "routes.yaml"), "routes:\n  - path: /kyc/documents/\n    methods: [GET]\n    role: kyc:read\n");
    env = { GRAPH_URL: test.registry.url, GRAPH_TOKEN: await test.tokenFor(publisher) };
  });
  afterAll(async () => {
    await test?.registry.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // Each command is a process of its own compiling TypeScript: minutes on a loaded machine.
  it("publishes, checks safe and breaking changes, refuses and forces, with exit codes 0 and 1", { timeout: 300_000 }, async () => {
    const published = await subgraph(
      ["publish", "--name", "kyc", "--url", "http://kyc:4100/graphql", "--schema", join(dir, "v1.graphql"), "--routes", join(dir, "routes.yaml")],
      env,
    );
    expect(published).toMatchObject({ code: 0 });
    expect(published.stdout).toContain("kyc: published as version 1");
    const served = (await (await fetch(`${test.registry.url}/supergraph`)).json()) as { routes: string };
    expect(JSON.parse(served.routes)).toEqual([{ path: "/kyc/documents/", methods: ["GET"], role: "kyc:read", subgraph: "kyc" }]);

    const safe = await subgraph(["check", "--name", "kyc", "--url", "http://kyc:4100/graphql", "--schema", join(dir, "risk.graphql"), "--json"], env);
    expect(safe.code).toBe(0);
    expect(JSON.parse(safe.stdout)).toMatchObject({ safe: true, changes: [{ level: "safe", coordinate: "KycStatus.riskScore" }] });

    const report = {
      operationHash: "c".repeat(64),
      client: "officers-console",
      hour: thisHour(),
      count: 4,
      coordinates: ["Query.kycStatus", "KycStatus.note"],
    };
    expect((await test.call(gateway, "POST", "/usage", { reports: [report] })).status).toBe(202);
    const breaking = await subgraph(["check", "--name", "kyc", "--url", "http://kyc:4100/graphql", "--schema", join(dir, "no-note.graphql")], env);
    expect(breaking.code).toBe(1);
    expect(breaking.stdout).toContain("breaking change in use: KycStatus.note was requested 4 times in the last 30 days by officers-console");

    const refused = await subgraph(["publish", "--name", "kyc", "--url", "http://kyc:4100/graphql", "--schema", join(dir, "no-note.graphql")], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("kyc: publish refused");
    const forced = await subgraph(
      [
        "publish",
        "--name",
        "kyc",
        "--url",
        "http://kyc:4100/graphql",
        "--schema",
        join(dir, "no-note.graphql"),
        "--force",
        "--reason",
        "console release 42 reads no note",
      ],
      env,
    );
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("kyc: published as version 2 (forced: console release 42 reads no note)");

    const composition = await subgraph(["check", "--name", "kyb", "--url", "http://kyb/graphql", "--schema", join(dir, "kyb.graphql")], env);
    expect(composition.code).toBe(1);
    expect(composition.stdout).toMatch(/composition error \(subgraph kyb, kyc at KycStatus\.verified\)/);

    const history = await subgraph(["history", "--name", "kyc", "--json"], env);
    expect(history.code).toBe(0);
    expect(
      (JSON.parse(history.stdout) as { versions: { version: number; reason: string | null }[] }).versions.map(({ version, reason }) => [version, reason]),
    ).toEqual([
      [2, "console release 42 reads no note"],
      [1, null],
    ]);
    // An owner change is shown beside the versions, newest first.
    const owners = await fetch(`${test.registry.url}/registry/owners/set`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.GRAPH_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "kyc", owners: ["dev-api-client", "kyc-pipeline"] }),
    });
    expect(owners.status).toBe(200);
    const shown = await subgraph(["history", "--name", "kyc"], env);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^ {5} {2}\S+Z {2}owners {3}kyc {2}by dev-api-client \(service-account-dev-api-client\) {2}from dev-api-client to dev-api-client, kyc-pipeline$/,
    );
    expect(lines[1]).toMatch(/^ {4}2 .* publish {2}kyc .*reason: console release 42 reads no note$/);
    const rollback = await subgraph(["rollback", "--to", "1"], env);
    expect(rollback).toMatchObject({ code: 0, stdout: "rolled back to version 1 as version 3\n" });
  });

  it("exits 2 when the check cannot run: bad arguments, no token, a refused token, an unreachable gateway", { timeout: 300_000 }, async () => {
    const noCommand = await subgraph(["frobnicate"], env);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toContain("The command must be one of check, publish, history, rollback, remove");
    expect((await subgraph(["publish", "--name", "kyc", "--url", "http://kyc/graphql", "--schema", join(dir, "v1.graphql"), "--force"], env)).stderr).toContain(
      "--force needs --reason TEXT",
    );
    const missingFile = await subgraph(["check", "--name", "kyc", "--url", "http://kyc/graphql", "--schema", join(dir, "absent.graphql")], env);
    expect(missingFile).toMatchObject({ code: 2 });
    expect(missingFile.stderr).toContain("absent.graphql cannot be read (ENOENT)");
    const noToken = await subgraph(["history"], { GRAPH_URL: test.registry.url, GRAPH_TOKEN: "", GRAPH_CLIENT_ID: "", GRAPH_CLIENT_SECRET: "" });
    expect(noToken).toMatchObject({ code: 2 });
    expect(noToken.stderr).toContain("Set GRAPH_TOKEN, or GRAPH_CLIENT_ID and GRAPH_CLIENT_SECRET");
    const refusedToken = await subgraph(["history"], { GRAPH_URL: test.registry.url, GRAPH_TOKEN: "not-a-token" });
    expect(refusedToken).toMatchObject({ code: 2 });
    expect(refusedToken.stderr).toContain("The registry answered 401");
    const unreachable = await subgraph(["history"], { GRAPH_URL: `http://127.0.0.1:${await freePort()}`, GRAPH_TOKEN: "x" });
    expect(unreachable).toMatchObject({ code: 2 });
    expect(unreachable.stderr).toContain("could not be reached");
  });
});
