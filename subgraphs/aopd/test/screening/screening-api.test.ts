import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { bundledSanctionsLists, readSanctionsList } from "@compliance-graph/sanctions-lists";
import { createLogger } from "@compliance-graph/process-shell";
import { pollUntil } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestSatoshiProof } from "../../src/kinds/satoshi/request-satoshi-proof.js";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { screeningConfigFromEnv } from "../../src/screening/screening-config.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const requester = { origin: { actor: { subject: "test-requester", client: "test", username: null, system: false }, requestId: null } };

const [firstList, secondList] = bundledSanctionsLists();
const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const newlyListed = "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz";
const providerKey = "stand-in-key-7f3a9c41e2b8d6055";

/**
 * A local stand-in for a Chainalysis-style sanctions API: `GET /api/v1/address/<address>` with the
 * key in `X-API-Key`, answering `{ identifications: [...] }` in the documented shape; `failing`
 * makes it answer 500 until set back.
 */
async function startProviderStandIn(listed: string): Promise<{ url: string; server: Server; failing: boolean; requests: number }> {
  const state = { url: "", server: undefined as unknown as Server, failing: false, requests: 0 };
  state.server = createServer((request, response) => {
    state.requests += 1;
    const match = /^\/api\/v1\/address\/([^/?]+)$/.exec(request.url ?? "");
    if (request.headers["x-api-key"] !== providerKey) return void response.writeHead(401).end();
    if (state.failing) return void response.writeHead(500).end();
    if (!match) return void response.writeHead(404).end();
    const address = decodeURIComponent(match[1]!);
    const identifications =
      address === listed
        ? [{ category: "sanctions", name: "SANCTIONS: OFAC SDN Stand-in Entity", description: "Listed by the stand-in.", url: "https://example.test/sdn" }]
        : [];
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ identifications }));
  });
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

const screeningFields =
  "screening { status list listVersion screenedAt matchedEntry { asset address sdnUid sdnName } } providerScreening { provider status identifications { category name } }";

describe.each(databaseDrivers)("screening through the API on %s", (driver) => {
  let aopd: TestAopd;
  let provider: Awaited<ReturnType<typeof startProviderStandIn>>;
  const logLines: string[] = [];

  const requestProof = async (asset: string, address: string) => {
    const { body } = await aopd.query(
      `mutation ($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { proof { id ${screeningFields} } } } }`,
      { input: { customerId: "screened-customer", asset, expectedAddress: address } },
    );
    expect(body.errors).toBeUndefined();
    return (
      (body.data!.aopd as Record<string, unknown>).requestAoppProof as {
        proof: { id: string; screening: Record<string, unknown>; providerScreening: Record<string, unknown> | null };
      }
    ).proof;
  };
  const proofById = async (id: string) => {
    const { body } = await aopd.query(
      `query ($id: String!) { aopd { proofs(limit: 1, filter: { is: { any: { id: { eq: $id } } } }) { id ${screeningFields} } } }`,
      { id },
    );
    expect(body.errors).toBeUndefined();
    return (
      (body.data!.aopd as Record<string, unknown>).proofs as {
        id: string;
        screening: Record<string, unknown>;
        providerScreening: Record<string, unknown> | null;
      }[]
    )[0]!;
  };
  const ready = async () => (await (await fetch(new URL("/health/ready", aopd.url))).json()) as { status: string; degraded?: string[] };

  beforeAll(async () => {
    provider = await startProviderStandIn(newlyListed);
    const screening = screeningConfigFromEnv(
      { AOPD_SCREENING_PROVIDER_URL: provider.url, AOPD_SCREENING_PROVIDER_KEY: providerKey, AOPD_SCREENING_PROVIDER_INTERVAL_SECONDS: "1" },
      false,
      (name, fallback) => (name === "AOPD_SCREENING_PROVIDER_INTERVAL_SECONDS" ? 1 : fallback),
    );
    aopd = await startTestAopd(driver, {
      config: { screening },
      loadBundledSanctionsList: false,
      logger: createLogger("aopd", "debug", { write: (line: string) => void logLines.push(line) }),
    });
  });
  afterAll(async () => {
    await aopd?.close();
    await new Promise((resolve) => provider?.server.close(resolve));
  });

  it("shows a proof CLEAR under the first list and LISTED after the second, with a SCREENING_CHANGED event, filters and sorts by it", async () => {
    await importSanctionsList(aopd.services.db, aopd.services.config.assets, await readSanctionsList([firstList!]));
    const proof = await requestProof(bitcoin, newlyListed);
    expect(proof.screening).toMatchObject({ status: "CLEAR", list: "OFAC SDN", listVersion: "2024-05-29", matchedEntry: null });
    const evm = await requestProof(ether, "0x01e2919679362dfbc9ee1644ba9c6da6d6245bb1");
    expect(evm.screening).toMatchObject({
      status: "LISTED",
      matchedEntry: { asset: "ETH", address: "0x01e2919679362dFBC9ee1644Ba9C6da6D6245BB1", sdnUid: null },
    });
    const { body: before } = await aopd.query(`{ aopd { proofEvents(limit: 1000) { endCursor } } }`);
    const cursor = ((before.data!.aopd as Record<string, unknown>).proofEvents as { endCursor: string }).endCursor;

    const report = await importSanctionsList(aopd.services.db, aopd.services.config.assets, await readSanctionsList([secondList!]));
    expect(report.changes).toEqual([{ proofId: proof.id, from: "CLEAR", to: "LISTED" }]);
    expect((await proofById(proof.id)).screening).toMatchObject({
      status: "LISTED",
      listVersion: "2024-09-27",
      matchedEntry: { asset: "XBT", address: newlyListed },
    });

    const listed = await aopd.query(`{ aopd { proofs(limit: 10, filter: { is: { any: { screening: { status: [LISTED] } } } }) { id } } }`);
    expect(((listed.body.data!.aopd as Record<string, unknown>).proofs as { id: string }[]).map((row) => row.id).sort()).toEqual([proof.id, evm.id].sort());
    const since = await aopd.query(`{ aopd { proofs(limit: 10, filter: { is: { any: { screening: { listVersion: { eq: "2024-09-27" } } } } }) { id } } }`);
    expect(((since.body.data!.aopd as Record<string, unknown>).proofs as { id: string }[]).map((row) => row.id)).toEqual([proof.id]);
    const clear = await requestProof(ether, "0x000000000000000000000000000000000000dead");
    const sorted = await aopd.query(`{ aopd { proofs(limit: 10, sortOrder: [{ field: SCREENING, direction: DESC }]) { id screening { status } } } }`);
    expect(((sorted.body.data!.aopd as Record<string, unknown>).proofs as { screening: { status: string } }[]).map((row) => row.screening.status)).toEqual([
      "LISTED",
      "LISTED",
      "CLEAR",
    ]);
    expect(((sorted.body.data!.aopd as Record<string, unknown>).proofs as { id: string }[]).at(-1)!.id).toBe(clear.id);

    const events = await pollUntil(
      "the screening event",
      async () => {
        const { body } = await aopd.query(
          `query ($after: String) { aopd { proofEvents(after: $after, limit: 100) { events { change proof { id screening { status } } } } } }`,
          { after: cursor },
        );
        return (
          (body.data!.aopd as Record<string, unknown>).proofEvents as { events: { change: string; proof: { id: string; screening: { status: string } } }[] }
        ).events;
      },
      (page) => page.some((event) => event.change === "SCREENING_CHANGED"),
    );
    expect(events.filter((event) => event.change === "SCREENING_CHANGED").map((event) => [event.proof.id, event.proof.screening.status])).toEqual([
      [proof.id, "LISTED"],
    ]);
    const bad = await aopd.query(`{ aopd { proofs(limit: 10, filter: { is: { any: { screening: { status: [] } } } }) { id } } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it(
    "records the provider's answer beside the list's, backs off and reports degraded while it fails, and never shows its key",
    { timeout: 300_000 },
    async () => {
      const proof = await requestProof(bitcoin, newlyListed);
      const answered = await pollUntil(
        "the provider's answer",
        async () => (await proofById(proof.id)).providerScreening,
        (value) => value !== null,
      );
      expect(answered).toEqual({
        provider: "Chainalysis sanctions API",
        status: "LISTED",
        identifications: [{ category: "sanctions", name: "SANCTIONS: OFAC SDN Stand-in Entity" }],
      });
      provider.failing = true;
      const during = await requestProof(bitcoin, "1BoatSLRHtKNngkdXEeobR76b53LETtpyT");
      const degraded = await pollUntil("degraded readiness", ready, (value) => value.status === "degraded");
      expect(degraded.degraded).toContain("screening provider Chainalysis sanctions API");
      expect((await proofById(during.id)).providerScreening).toBeNull();
      provider.failing = false;
      // The backoff doubles from 1 s; the stand-in fails for a few seconds at most, so the wait is well within the limit.
      const recovered = await pollUntil(
        "the answer after recovery",
        async () => (await proofById(during.id)).providerScreening,
        (value) => value !== null,
        { timeoutMs: 120_000 },
      );
      expect(recovered).toMatchObject({ status: "CLEAR", identifications: [] });
      expect((await ready()).status).toBe("ready");

      const client = aopd.services.config.screening.provider!.client;
      const { body: configuration } = await aopd.query(`{ aopd { configuration { portalUrl } } }`);
      for (const shown of [
        String(client),
        JSON.stringify(client),
        inspect(client),
        JSON.stringify(aopd.services.config.screening),
        JSON.stringify(configuration),
        logLines.join("\n"),
      ]) {
        expect(shown).not.toContain(providerKey);
      }
      expect(logLines.join("\n")).toContain("the screening provider failed; backing off");
    },
  );

  it("refuses a request for a listed address under AOPD_SCREENING_POLICY=refuse, naming the list, and creates nothing", async () => {
    const refusing = { ...aopd.services.config, screening: { policy: "refuse" as const, provider: undefined } };
    const count = async () =>
      Number(
        (
          await aopd.services.db
            .selectFrom("aopd_proof")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const input = { customerId: "refused", asset: bitcoin, senderAddress: newlyListed, depositAddress: "1BoatSLRHtKNngkdXEeobR76b53LETtpyT" };
    await expect(requestSatoshiProof(aopd.services.db, refusing, input, requester)).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT" },
      message: expect.stringMatching(
        /^input\.senderAddress: 13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz is listed on the OFAC SDN list \(version 2024-09-27, entry XBT 13Jt.*AOPD_SCREENING_POLICY=refuse/,
      ),
    });
    expect(await count()).toBe(before);
    // The default policy flags instead: the same request creates the proof, LISTED.
    const flagged = await requestSatoshiProof(aopd.services.db, aopd.services.config, input, requester);
    expect(flagged.row.screening_status).toBe("LISTED");
  });
});

describe("a fresh aopd screens out of the box", () => {
  let aopd: TestAopd | undefined;
  afterAll(async () => {
    await aopd?.close();
  });

  it("imports the newest bundled list at its first start, screens the demo proofs it seeds, and imports nothing at the next", async () => {
    aopd = await startTestAopd("pglite", { seedDemoProofs: 20 });
    const versions = await aopd.services.db.selectFrom("aopd_sanctions_list").select(["list_name", "source"]).execute();
    expect(versions).toEqual([{ list_name: "OFAC SDN", source: "per-asset text lists ofac-2025-11-19" }]);
    const { body } = await aopd.query(
      `mutation ($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { proof { screening { status listVersion matchedEntry { asset address } } } } } }`,
      { input: { customerId: "fresh", asset: bitcoin, expectedAddress: newlyListed } },
    );
    expect(body.data).toEqual({
      aopd: {
        requestAoppProof: { proof: { screening: { status: "LISTED", listVersion: "2025-11-19", matchedEntry: { asset: "XBT", address: newlyListed } } } },
      },
    });
    // Every seeded proof of a screened asset with an address was screened as it was written.
    const seeded = await aopd.services.db
      .selectFrom("aopd_proof")
      .innerJoin("aopd_screened_asset", "aopd_screened_asset.asset", "aopd_proof.asset")
      .select("screening_status")
      .where("customer_id", "!=", "fresh")
      .where("address", "is not", null)
      .execute();
    expect(seeded.length).toBeGreaterThan(0);
    expect(seeded.filter((row) => row.screening_status === "NOT_SCREENED")).toEqual([]);
    const { loadBundledSanctionsList } = await import("../../src/screening/load-bundled-sanctions-list.js");
    expect(await loadBundledSanctionsList(aopd.services.db, aopd.services.config.assets)).toBeUndefined();
    // A fresh PGlite database is migrated and seeded first: minutes on a loaded machine.
  }, 300_000);
});
