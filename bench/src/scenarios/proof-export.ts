import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { Writable } from "node:stream";
import { getHeapStatistics } from "node:v8";
import ExcelJS from "exceljs";
import { exportProofsAsXlsx, openDatabase, type Proof, selectProofs, toProof } from "@compliance-graph/aopd/internals";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import { defaultFilterLimits } from "@compliance-graph/filter";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { ensureSeededDatabase } from "../support/bench-database.js";
import { startBenchStack } from "../support/start-bench-stack.js";
import { freePort, startProcess } from "@compliance-graph/test-kit";

/**
 * `proofsAsXlsx` against exceljs's in-memory `Workbook` on the same rows. Each run is a fresh
 * process, so that one run's heap cannot flatter or burden the next; peak RSS comes from Linux's
 * high-water mark (VmHWM), reset through /proc/<pid>/clear_refs just before the export so that
 * start-up and warm-up do not count.
 */
interface RunFigures {
  seconds: number;
  /** Peak RSS during the export, less the RSS just before it; MB. */
  peakGrowthMb: number;
  fileBytes: number;
  base64Length: number;
  /** CPU time of the process (all threads: JavaScript, zlib's pool, GC) during the run, µs per proof; steadier than seconds on a shared machine. */
  cpuMicrosPerRow?: number;
  /** CPU time of the PostgreSQL backend that served the export (the pool has one connection), µs per proof. */
  databaseCpuMicrosPerRow?: number;
  /** The 1-minute load average at the end of the run: how much else the machine was doing. */
  load: number;
}

const mb = (kilobytes: number) => kilobytes / 1024;

function memoryKb(pid: number | "self", field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** User and system CPU time of a process on this machine so far, µs (Linux /proc, in clock ticks of 10 ms). */
function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resets the high-water mark to the current RSS (Linux: "5" into clear_refs). */
function resetPeak(pid: number | "self"): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/**
 * The streamed export as a client gets it: the aopd subgraph in its own process, `proofsAsXlsx`
 * over HTTP, timed until the whole JSON response is read. Its peak includes what serving adds:
 * the base64 text, the JSON response and the socket's buffer, each about as large as the file.
 */
async function httpRun(url: string): Promise<RunFigures> {
  const port = await freePort();
  // Expiry off: it would change the seeded proofs, and the other variants must see the same rows.
  const subgraph = await startProcess(
    "subgraphs/aopd/src/main.ts",
    { AOPD_PORT: String(port), DATABASE_URL: url, AOPD_MAX_EXPORT_ROWS: "2000000", AOPD_EXPIRY_INTERVAL_SECONDS: "0", INSECURE_DEVELOPMENT_IDENTITY: "true" },
    `http://127.0.0.1:${port}/health/ready`,
  );
  const post = async (filter: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "query($f: AopdProofFilterInput) { aopd { proofsAsXlsx(filter: $f) } }", variables: { f: filter } }),
    });
    const body = (await response.json()) as { data?: { aopd: { proofsAsXlsx: string } }; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data!.aopd.proofsAsXlsx;
  };
  try {
    const pid = subgraph.child.pid!;
    // Warm-up on a month of proofs, so that the measured run is not the first through the JIT.
    await post({ is: { any: { createdAt: { gte: "2025-01-01T00:00:00Z", lt: "2025-02-01T00:00:00Z" } } } });
    resetPeak(pid);
    const before = memoryKb(pid, "VmRSS");
    const started = performance.now();
    const base64 = await post(null);
    const seconds = (performance.now() - started) / 1000;
    const peak = memoryKb(pid, "VmHWM");
    return { seconds, peakGrowthMb: mb(peak - before), fileBytes: Buffer.from(base64, "base64").length, base64Length: base64.length, load: loadavg()[0]! };
  } finally {
    await subgraph.stop();
  }
}

interface DownloadFigures {
  seconds: number;
  fileBytes: number;
  /** Peak RSS during the download less the RSS just before it, per process; MB. */
  aopdPeakGrowthMb: number;
  gatewayPeakGrowthMb: number;
}

/**
 * The download as a client gets it: gateway, aopd and trpd each in its own process,
 * `POST /exports/proofs.xlsx` with a real access token, the body read to its end and counted
 * (not kept) by the bench. Peaks from each server's VmHWM, reset just before.
 */
async function downloadRun(url: string): Promise<DownloadFigures> {
  const stack = await startBenchStack(url, { aopdEnv: { AOPD_MAX_DOWNLOAD_ROWS: "2000000" } });
  const download = async (filter: unknown) => {
    const response = await fetch(`${stack.base}/exports/proofs.xlsx`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${stack.token}` },
      body: JSON.stringify({ filter }),
    });
    if (response.status !== 200 || !response.body) throw new Error(`download answered ${response.status}: ${await response.text()}`);
    let bytes = 0;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
    return bytes;
  };
  try {
    const [aopd, gateway] = [stack.aopd.child.pid!, stack.gateway.child.pid!];
    await download({ is: { any: { createdAt: { gte: "2025-01-01T00:00:00Z", lt: "2025-02-01T00:00:00Z" } } } });
    resetPeak(aopd);
    resetPeak(gateway);
    const before = { aopd: memoryKb(aopd, "VmRSS"), gateway: memoryKb(gateway, "VmRSS") };
    const started = performance.now();
    const fileBytes = await download(null);
    const seconds = (performance.now() - started) / 1000;
    return {
      seconds,
      fileBytes,
      aopdPeakGrowthMb: mb(memoryKb(aopd, "VmHWM") - before.aopd),
      gatewayPeakGrowthMb: mb(memoryKb(gateway, "VmHWM") - before.gateway),
    };
  } finally {
    await stack.stop();
  }
}

/** Runs one export in a child process of its own (this file, with `--child <variant> <url>`). */
async function childRun(variant: "streamed" | "exceljs-streamed" | "in-memory", url: string): Promise<RunFigures | string> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", variant, url], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode, signal) => resolve(signal ? 128 : exitCode)));
  if (code !== 0) {
    if (/heap out of memory/.test(errors)) return `out of memory (V8 heap limit ${Math.round(getHeapStatistics().heap_size_limit / 2 ** 20)} MiB)`;
    return `failed (exit ${code}): ${errors.trim().split("\n")[0] ?? ""}`;
  }
  return JSON.parse(output) as RunFigures;
}

const columnsOfBaseline = (proof: Proof, assetName: (code: string) => string | undefined) => {
  const signature = proof.__typename === "AopdSignatureProof" ? proof : undefined;
  const satoshi = proof.__typename === "AopdSatoshiProof" ? proof : undefined;
  return [
    proof.id,
    signature ? "signature" : "satoshi",
    proof.createdAt,
    proof.updatedAt,
    proof.customerId,
    proof.asset,
    assetName(proof.asset),
    proof.address,
    signature?.format,
    proof.status,
    proof.comment,
    signature?.xpub,
    signature?.message,
    signature?.signature,
    satoshi?.amount,
    satoshi?.senderAddress,
    satoshi?.depositAddress,
    satoshi?.txId,
    proof.dueAt,
    satoshi?.assessment,
  ].map((value) => value ?? undefined);
};

/**
 * Child side of {@link childRun}: the export as the resolver runs it (streamed), or the same rows
 * and cells through exceljs's in-memory model; both end with the base64 text the response carries.
 */
async function child(variant: string, url: string): Promise<void> {
  const database = await openDatabase({ databaseUrl: url, maxConnections: 1 });
  const assets = AssetRegistry.load();
  const assetName = (code: string) => assets.get(code)?.name;
  const streamed = () => exportProofsAsXlsx(database.db, { limits: defaultFilterLimits, maxRows: 2_000_000, assetNames: assets.names, pool: database.pool });
  // Warm-up on a month of proofs, so that the measured run is not the first through the JIT.
  if (variant === "streamed")
    await exportProofsAsXlsx(database.db, {
      limits: defaultFilterLimits,
      maxRows: 2_000_000,
      assetNames: assets.names,
      pool: database.pool,
      filter: { is: { any: { createdAt: { lt: new Date("2025-02-01T00:00:00Z") } } } },
    });
  resetPeak("self");
  // The pool holds one connection, so this backend serves the whole export.
  const backend = (await database.pool!.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const backendCpuBefore = processCpuMicros(backend);
  const before = memoryKb("self", "VmRSS");
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { file, rows } =
    variant === "streamed"
      ? await streamed()
      : {
          file: variant === "exceljs-streamed" ? await exceljsStreamedWorkbook(database, assetName) : await inMemoryWorkbook(database, assetName),
          rows: undefined,
        };
  const base64 = file.toString("base64");
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const figures: RunFigures = {
    seconds,
    peakGrowthMb: mb(memoryKb("self", "VmHWM") - before),
    fileBytes: file.length,
    base64Length: base64.length,
    cpuMicrosPerRow: rows ? (cpu.user + cpu.system) / rows : undefined,
    load: loadavg()[0]!,
    databaseCpuMicrosPerRow: rows ? (processCpuMicros(backend) - backendCpuBefore) / rows : undefined,
  };
  process.stdout.write(JSON.stringify(figures));
  await database.close();
}

async function inMemoryWorkbook(database: Awaited<ReturnType<typeof openDatabase>>, assetName: (code: string) => string | undefined): Promise<Buffer> {
  const rows = await selectProofs(database.db, undefined, undefined, defaultFilterLimits).execute();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Proofs");
  sheet.columns = Array.from({ length: 20 }, (_, index) =>
    [2, 3, 18].includes(index) ? { width: 24, style: { numFmt: "yyyy-mm-dd hh:mm:ss.000" } } : { width: 20 },
  );
  sheet.addRow(Array.from({ length: 20 }, (_, index) => `column ${index + 1}`));
  for (const row of rows) sheet.addRow(columnsOfBaseline(toProof(row), assetName));
  return Buffer.from(await workbook.xlsx.writeBuffer({ useSharedStrings: false, useStyles: true } as ExcelJS.XlsxWriteOptions));
}

/**
 * The same rows and cells through exceljs's streaming writer (the reference: about 110,000
 * rows/s on a laptop core), read through a cursor 2,000 rows at a time as the export reads them.
 */
async function exceljsStreamedWorkbook(database: Awaited<ReturnType<typeof openDatabase>>, assetName: (code: string) => string | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: new Writable({ write: (chunk: Buffer, _encoding, callback) => (chunks.push(chunk), callback()) }),
    useSharedStrings: false,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet("Proofs");
  sheet.columns = Array.from({ length: 20 }, (_, index) =>
    [2, 3, 18].includes(index) ? { width: 24, style: { numFmt: "yyyy-mm-dd hh:mm:ss.000" } } : { width: 20 },
  );
  sheet.addRow(Array.from({ length: 20 }, (_, index) => `column ${index + 1}`)).commit();
  const client = await database.pool!.connect();
  try {
    await client.query("BEGIN");
    const query = selectProofs(database.db, undefined, undefined, defaultFilterLimits).compile();
    await client.query(`DECLARE baseline NO SCROLL CURSOR FOR ${query.sql}`, [...query.parameters]);
    for (;;) {
      const { rows } = await client.query("FETCH FORWARD 2000 FROM baseline");
      if (rows.length === 0) break;
      for (const row of rows) sheet.addRow(columnsOfBaseline(toProof(row), assetName)).commit();
    }
    await client.query("COMMIT");
  } finally {
    client.release();
  }
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

export const proofExportScenario: BenchmarkScenario = {
  name: "proof-export",
  async run({ quick }) {
    const sizes = quick ? [1_000, 5_000] : [10_000, 100_000, 1_000_000];
    const rows: (string | number)[][] = [];
    const downloads: (string | number)[][] = [];
    for (const count of sizes) {
      const { url } = await ensureSeededDatabase(`aopd_bench_export_${count}`, count);
      for (const [variant, figures] of [
        ["exportProofsAsXlsx (streamed)", await childRun("streamed", url)],
        ["exceljs streaming WorkbookWriter", await childRun("exceljs-streamed", url)],
        ["exceljs in-memory Workbook", await childRun("in-memory", url)],
        ["proofsAsXlsx over HTTP, end to end", await httpRun(url)],
      ] as const) {
        if (typeof figures === "string") {
          rows.push([count.toLocaleString("en"), variant, figures, "", "", "", "", "", "", ""]);
          continue;
        }
        rows.push([
          count.toLocaleString("en"),
          variant,
          figures.seconds.toFixed(2),
          Math.round(count / figures.seconds).toLocaleString("en"),
          figures.peakGrowthMb.toFixed(0),
          (figures.fileBytes / 2 ** 20).toFixed(1),
          figures.base64Length.toLocaleString("en"),
          figures.cpuMicrosPerRow === undefined ? "" : figures.cpuMicrosPerRow.toFixed(1),
          figures.databaseCpuMicrosPerRow === undefined ? "" : figures.databaseCpuMicrosPerRow.toFixed(1),
          figures.load.toFixed(1),
        ]);
      }
      const download = await downloadRun(url);
      downloads.push([
        count.toLocaleString("en"),
        download.seconds.toFixed(2),
        Math.round(count / download.seconds).toLocaleString("en"),
        (download.fileBytes / 2 ** 20).toFixed(1),
        download.aopdPeakGrowthMb.toFixed(0),
        download.gatewayPeakGrowthMb.toFixed(0),
        loadavg()[0]!.toFixed(1),
      ]);
    }
    const table: BenchmarkTable = {
      title: "XLSX export of proofs: streamed proofsAsXlsx vs exceljs's streaming and in-memory writers",
      method:
        "PostgreSQL server on loopback, databases seeded with the demo proofs, every proof exported (no filter). Each run is a fresh process. Streamed: `exportProofsAsXlsx` as the resolver calls it (count, then the rows through COPY, streaming writer), after a warm-up export of a month of proofs, then base64. exceljs streaming: `ExcelJS.stream.xlsx.WorkbookWriter` (no shared strings) on the same rows read through a cursor 2,000 at a time, each row committed as it is added, then base64. In-memory: all rows selected at once and written with `new ExcelJS.Workbook()` and `writeBuffer` (no shared strings), same cells, then base64. Over HTTP: the aopd subgraph in its own process, same warm-up, `proofsAsXlsx` timed until the bench has read the whole JSON response. Peak RSS growth is the process's VmHWM during the run less its RSS just before (Linux /proc).",
      columns: [
        "proofs",
        "variant",
        "seconds",
        "rows/s",
        "peak RSS growth (MB)",
        "file (MiB)",
        "base64 length",
        "CPU µs/row (streamed)",
        "PostgreSQL CPU µs/row (streamed)",
        "load average",
      ],
      rows,
      notes: ["Aim (streamed): at least 100,000 rows/s and under 150 MB peak RSS growth for 100,000 proofs; 1,000,000 proofs without running out of memory."],
    };
    const downloadTable: BenchmarkTable = {
      title: "XLSX download of proofs through the gateway: POST /exports/proofs.xlsx",
      method:
        "The same databases; gateway (with the development identity provider), aopd and trpd each in its own process, as in production. The bench fetches an access token, downloads a month of proofs as a warm-up, then every proof, reading the body as it arrives and counting its bytes. Peak RSS growth: each server's VmHWM during the download less its RSS just before (Linux /proc).",
      columns: ["proofs", "seconds", "rows/s", "file (MiB)", "aopd peak RSS growth (MB)", "gateway peak RSS growth (MB)", "load average"],
      rows: downloads,
      notes: ["Aim: 1,000,000 proofs with under 100 MB of peak RSS growth in every process."],
    };
    return [table, downloadTable];
  },
};

if (process.argv[2] === "--child" && process.argv[3] && process.argv[4]) await child(process.argv[3], process.argv[4]);
