import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccounts, createTestDatabase, freePort, type LocalAnvil, pollUntil, startLocalAnvil } from "@compliance-graph/test-kit";
import { blockbookFixtures, startBlockbookStandIn, type BlockbookStandIn } from "../support/blockbook-stand-in.js";

const entry = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const promtool = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool";
const secret = "key-0b6f2d9e71c4";
const [sender, deposit] = anvilAccounts;

/** `promtool check metrics` on one exposition: its exit code and complaints. */
function promtoolCheck(exposition: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(promtool, ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
    child.stdin.end(exposition);
  });
}

/**
 * aopd as production starts it: its entry point (`src/main.ts`) in a process of its own,
 * configured only by the environment, with the chain connections pointing at a real anvil node
 * and at the Blockbook stand-in (the API key in its URL's path).
 */
// The watcher runs on its own schedule, so the test polls for the state it expects (pollUntil).
describe("the chain watcher of a started aopd", () => {
  let anvil: LocalAnvil;
  let blockbook: BlockbookStandIn;
  let aopd: ChildProcess;
  let base: string;
  let output = "";

  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: { aopd: Record<string, Record<string, unknown>> }; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data!.aopd;
  };
  const requestProof = async (asset: string, senderAddress: string, depositAddress: string) =>
    (
      await graphql(
        `
          mutation Request($input: AopdRequestSatoshiProofInput!) {
            aopd {
              requestSatoshiProof(input: $input) {
                id
                amount
                status
              }
            }
          }
        `,
        { input: { customerId: "CUST-STARTED", asset, senderAddress, depositAddress } },
      )
    ).requestSatoshiProof!;
  const finalize = async (id: string, txId: string) =>
    (
      await graphql(
        `
          mutation Finalize($id: ID!, $txId: String!) {
            aopd {
              finalizeSatoshiProof(id: $id, txId: $txId) {
                status
                txId
              }
            }
          }
        `,
        { id, txId },
      )
    ).finalizeSatoshiProof!;
  const proof = async (id: string) =>
    (
      await graphql(
        `
          query Proof($id: ID!) {
            aopd {
              proof(id: $id) {
                status
                ... on AopdSatoshiProof {
                  txId
                  blockHeight
                  confirmations
                  failureReason
                }
              }
            }
          }
        `,
        { id },
      )
    ).proof!;

  beforeAll(async () => {
    const [node, standIn, databaseUrl, port] = await Promise.all([
      startLocalAnvil(),
      startBlockbookStandIn(secret, Object.values(blockbookFixtures())),
      createTestDatabase("chain16started"),
      freePort(),
    ]);
    [anvil, blockbook] = [node, standIn];
    base = `http://127.0.0.1:${port}`;
    aopd = spawn(process.execPath, ["--import", "tsx", entry], {
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        APOLLO_TELEMETRY_DISABLED: "1",
        AOPD_PORT: String(port),
        AOPD_HOST: "127.0.0.1",
        // No gateway in front: the test calls aopd as a developer with every role, said explicitly.
        INSECURE_DEVELOPMENT_IDENTITY: "true",
        DATABASE_URL: databaseUrl,
        AOPD_CHAIN_ETHEREUM_URL: anvil.url,
        AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "2",
        AOPD_CHAIN_BITCOIN_URL: blockbook.url,
        AOPD_CHAIN_CHECK_INTERVAL_SECONDS: "1",
        AOPD_CHAIN_RECHECK_SECONDS: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    aopd.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    aopd.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await pollUntil(
      "aopd's readiness",
      () =>
        fetch(`${base}/health/ready`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
    );
  }, 180_000);
  afterAll(async () => {
    if (aopd && aopd.exitCode === null) {
      await new Promise<void>((resolve) => {
        aopd.once("exit", () => resolve());
        aopd.kill("SIGTERM");
      });
    }
    await Promise.all([anvil?.close(), blockbook?.close()]);
  });

  it("takes a proof reported through /graphql from SUBMITTED to VERIFIED once its payment is deep enough", async () => {
    const requested = await requestProof("DTIX9J9K872S", sender, deposit);
    const txId = await anvil.send({ from: sender, to: deposit, value: BigInt(String(requested.amount)) });
    expect(await finalize(requested.id as string, txId)).toEqual({ status: "SUBMITTED", txId });

    // The watcher sees the transaction with one confirmation of the two: recorded, still SUBMITTED.
    const shallow = await pollUntil(
      "the first check",
      () => proof(requested.id as string),
      (seen) => seen.confirmations === 1,
    );
    expect(shallow).toMatchObject({ status: "SUBMITTED", txId, failureReason: null });
    await anvil.mine(1);
    const verified = await pollUntil(
      "the verification",
      () => proof(requested.id as string),
      (seen) => seen.status !== "SUBMITTED",
    );
    expect(verified).toEqual({ status: "VERIFIED", txId, blockHeight: shallow.blockHeight, confirmations: 2, failureReason: null });
  });

  it("reports the checks and a backing-off connection on /metrics (promtool accepts it) and says degraded when ready, never quoting the key", async () => {
    blockbook.failWith(429);
    const requested = await requestProof("DTI4H95J0R2X", "bc1qmgwnfjlda4ns3g6g3yz74w6scnn9yu2ts82yyc", "1Nb1ykSD7J5k4RFjJQGsrD9gxBE6jzfNa9");
    await finalize(requested.id as string, "8c1e3dec662d1f2a5e322ccef5eca263f98eb16723c6f990be0c88c1db113fb1");

    const ready = await pollUntil(
      "degraded readiness",
      async () => {
        const response = await fetch(`${base}/health/ready`);
        return { status: response.status, body: (await response.json()) as unknown };
      },
      (seen) => (seen.body as { status: string }).status === "degraded",
    );
    expect(ready).toEqual({ status: 200, body: { status: "degraded", degraded: ["bitcoin chain connection"] } });

    const exposition = await (await fetch(`${base}/metrics`)).text();
    expect(await promtoolCheck(exposition)).toEqual({ code: 0, output: "" });
    const sample = (series: string) =>
      Number(
        exposition
          .split("\n")
          .find((line) => line.startsWith(`${series} `))
          ?.slice(series.length + 1) ?? Number.NaN,
      );
    expect(sample('aopd_chain_connection_up{network="bitcoin",service="aopd"}')).toBe(0);
    expect(sample('aopd_chain_connection_up{network="ethereum",service="aopd"}')).toBe(1);
    expect(sample('aopd_chain_checks_total{network="ethereum",outcome="verified",service="aopd"}')).toBeGreaterThanOrEqual(1);
    expect(sample('aopd_chain_checks_total{network="ethereum",outcome="waiting",service="aopd"}')).toBeGreaterThanOrEqual(1);
    expect(output).toContain("The bitcoin chain connection failed: rate limited. Checks back off.");
    for (const text of [exposition, JSON.stringify(ready), output]) expect(text).not.toContain(secret);
    // The proof waits, unjudged, for the connection to come back (or for an officer).
    expect(await proof(requested.id as string)).toMatchObject({ status: "SUBMITTED", confirmations: null });
  });
});
