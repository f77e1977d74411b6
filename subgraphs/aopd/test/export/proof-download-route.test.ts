import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAopd, type RunningAopd } from "../../src/start-aopd.js";
import { createTestDatabase, readWorkbook } from "@compliance-graph/test-kit";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

/** aopd's side of the download (the whole path through the gateway: test/export/proof-download.test.ts). */
describe("the proof download route of aopd", () => {
  let aopd: TestAopd;
  let downloadUrl: URL;

  beforeAll(async () => {
    aopd = await startTestAopd("pglite", { seedDemoProofs: 30, config: { maxDownloadRows: 20 } });
    downloadUrl = new URL("/exports/proofs.xlsx", aopd.url);
  });
  afterAll(async () => {
    await aopd?.close();
  });

  const download = (body: unknown) => fetch(downloadUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("shares the export slots of proofsAsXlsx: a caller's download while their export runs is refused with 429", async () => {
    // The development identity's subject, as a running proofsAsXlsx of the same caller would hold it.
    const release = aopd.services.exportSlots.acquire("development");
    try {
      const refused = await download({ filter: null });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: "LIMIT_EXCEEDED", limit: "maxConcurrentExportsPerCaller" } }] });
    } finally {
      release();
    }
    // Free again once released; the slot stays taken until the file has been sent, so it is read whole.
    const allowed = await download({ filter: { is: { any: { status: ["VERIFIED"] } } } });
    expect(allowed.status).toBe(200);
    await allowed.arrayBuffer();
  });

  it("refuses more proofs than AOPD_MAX_DOWNLOAD_ROWS with 400 before any byte of a file", async () => {
    const response = await download({ filter: null });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "LIMIT_EXCEEDED", limit: "maxExportRows", allowed: 20 } }] });
  });

  it("answers GET with 405, naming POST", async () => {
    const response = await fetch(downloadUrl);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("streams a workbook within the cap", async () => {
    const { body } = await aopd.query(`{ aopd { proofs(limit: 20) { createdAt } } }`);
    const twentieth = (body.data!.aopd as { proofs: { createdAt: string }[] }).proofs[19]!.createdAt;
    const response = await download({ filter: { is: { any: { createdAt: { lte: twentieth } } } } });
    expect(response.status).toBe(200);
    expect(readWorkbook(Buffer.from(await response.arrayBuffer()))[0]!.rows).toHaveLength(21);
  });
});

describe("a client that goes away during a download", () => {
  let aopd: RunningAopd;
  let logged: () => void = () => undefined;

  beforeAll(async () => {
    // Log lines reach the test as they are written, so it waits for the export's own signal.
    const lines = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if ((JSON.parse(chunk.toString()) as { msg?: string }).msg === "proof download broke off") logged();
        callback();
      },
    });
    aopd = await startAopd({
      config: { port: 0, databaseUrl: await createTestDatabase("downloadabort"), expiryIntervalSeconds: 0 },
      // More than the socket buffers between the two hold (about 10 MB of file), so the export is still writing when the client leaves.
      seedDemoProofs: 50_000,
      insecureDevelopmentIdentity: true,
      logger: pino({ level: "warn" }, lines),
    });
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("ends the export, freeing its slot and its database connection", async () => {
    const brokeOff = new Promise<void>((resolve) => (logged = resolve));
    const url = new URL("/exports/proofs.xlsx", aopd.url);
    const abort = new AbortController();
    const response = await fetch(url, { method: "POST", body: "{}", signal: abort.signal });
    expect(response.status, response.status === 200 ? "" : await response.text()).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    abort.abort();
    await brokeOff;
    // The same caller again: refused with 429 if the slot were still held.
    const next = await fetch(url, { method: "POST", body: JSON.stringify({ filter: { is: { any: { status: ["VERIFIED"] } } } }) });
    expect(next.status).toBe(200);
    expect(readWorkbook(Buffer.from(await next.arrayBuffer()))[0]!.rows.length).toBeGreaterThan(1);
  }, 60_000);
});
