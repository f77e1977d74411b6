import { Writable } from "node:stream";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
    // The trail says the same as the file: complete, 20 rows.
    const entries = await aopd.services.db.selectFrom("aopd_audit_entry").select("details").where("action", "=", "PROOFS_EXPORTED").execute();
    expect(entries.map((entry) => JSON.parse(entry.details) as unknown)).toContainEqual(
      expect.objectContaining({ via: "download", rows: 20, outcome: "complete" }),
    );
  });
});

/** The download route's trail entries, read straight from the database (it stays readable after aopd stopped). */
async function downloadEntries(databaseUrl: string): Promise<{ rows: number; outcome: string; why?: string }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ details: string }>("SELECT details FROM aopd_audit_entry WHERE action = 'PROOFS_EXPORTED' ORDER BY insertion");
    return rows
      .map((row) => JSON.parse(row.details) as { rows: number; outcome: string; why?: string })
      .filter((details) => (details as { via?: string }).via === "download");
  } finally {
    await client.end();
  }
}

describe("a download cut short: by its client going away, by a shutdown", () => {
  let aopd: RunningAopd | undefined;
  let databaseUrl: string;
  let logged: (line: { rows: number; outcome: string; why: string }) => void = () => undefined;
  const total = 50_000;

  beforeAll(async () => {
    // Log lines reach the test as they are written, so it waits for the export's own signal.
    const lines = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        const line = JSON.parse(chunk.toString()) as { msg?: string; rows: number; outcome: string; why: string };
        if (line.msg === "proof download cut short") logged(line);
        callback();
      },
    });
    databaseUrl = await createTestDatabase("downloadabort");
    aopd = await startAopd({
      config: { port: 0, databaseUrl, expiryIntervalSeconds: 0 },
      // More than the socket buffers between the two hold (about 10 MB of file), so the export is still writing when the client leaves.
      seedDemoProofs: total,
      insecureDevelopmentIdentity: true,
      logger: pino({ level: "warn" }, lines),
    });
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("ends the export, freeing its slot and its database connection, and records it as cut short by the client", async () => {
    const brokeOff = new Promise<{ rows: number; outcome: string; why: string }>((resolve) => (logged = resolve));
    const url = new URL("/exports/proofs.xlsx", aopd!.url);
    const abort = new AbortController();
    const response = await fetch(url, { method: "POST", body: "{}", signal: abort.signal });
    expect(response.status, response.status === 200 ? "" : await response.text()).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    abort.abort();
    const line = await brokeOff;
    expect(line).toMatchObject({ outcome: "cut short", why: "client gone" });
    // The same caller again: refused with 429 if the slot were still held.
    const next = await fetch(url, { method: "POST", body: JSON.stringify({ filter: { is: { any: { status: ["VERIFIED"] } } } }) });
    expect(next.status).toBe(200);
    expect(readWorkbook(Buffer.from(await next.arrayBuffer()))[0]!.rows.length).toBeGreaterThan(1);
    const [cut, whole] = await downloadEntries(databaseUrl);
    // The log line and the trail say the same: cut short by the client, with the rows written before the cut.
    expect(cut).toMatchObject({ outcome: "cut short", why: "client gone", rows: line.rows });
    expect(cut!.rows).toBeGreaterThan(0);
    expect(cut!.rows).toBeLessThan(total);
    expect(whole).toMatchObject({ outcome: "complete" });
  }, 120_000);

  it("records a download cut by the shutdown's drain as cut short by the shutdown, before the database closes", async () => {
    // The drain ends after a second, then cuts the download its client holds without reading.
    vi.stubEnv("SHUTDOWN_DRAIN_SECONDS", "1");
    const cutShort = new Promise<{ rows: number; outcome: string; why: string }>((resolve) => (logged = resolve));
    const response = await fetch(new URL("/exports/proofs.xlsx", aopd!.url), { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const running = aopd!;
    aopd = undefined;
    await running.close();
    vi.unstubAllEnvs();
    const line = await cutShort;
    expect(line).toMatchObject({ outcome: "cut short", why: "shutdown" });
    const entries = await downloadEntries(databaseUrl);
    expect(entries.at(-1)).toMatchObject({ outcome: "cut short", why: "shutdown", rows: line.rows });
    expect(entries.at(-1)!.rows).toBeLessThan(total);
    await reader.cancel().catch(() => undefined);
  }, 60_000);
});
