import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { freePort, startProcess } from "@compliance-graph/test-kit";

function memoryKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** Resets the high-water mark to the current RSS (Linux: "5" into clear_refs). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** An MP4 of `size` bytes made on the fly (an ftyp box, then pseudo-random frames), in 64 KiB pieces. */
function* videoPieces(size: number): Generator<Buffer> {
  const piece = 65_536;
  let state = 7;
  for (let at = 0; at < size; at += piece) {
    const bytes = Buffer.alloc(Math.min(piece, size - at));
    for (let i = 0; i < bytes.length; i += 4) {
      state = (state * 1_103_515_245 + 12_345) >>> 0;
      bytes.writeUInt32LE(state, i - (i + 4 > bytes.length ? i + 4 - bytes.length : 0));
    }
    if (at === 0)
      Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x6d, 0x70, 0x34, 0x31]).copy(bytes);
    yield bytes;
  }
}

function upload(url: string, size: number): Promise<{ status: number; sha256: string }> {
  const hash = createHash("sha256");
  return new Promise((resolve, reject) => {
    const sending = httpRequest(url, { method: "POST", headers: { "content-length": String(size), "content-type": "application/octet-stream" } }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, sha256: hash.digest("hex") }));
    });
    sending.on("error", reject);
    const pieces = videoPieces(size);
    const next = () => {
      for (;;) {
        const { value, done } = pieces.next();
        if (done) return void sending.end();
        hash.update(value);
        if (!sending.write(value)) return void sending.once("drain", next);
      }
    };
    next();
  });
}

async function download(url: string): Promise<{ bytes: number; sha256: string }> {
  const response = await fetch(url);
  if (response.status !== 200 || !response.body) throw new Error(`download answered ${response.status}`);
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += piece.length;
    hash.update(piece);
  }
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * A media proof's video through aopd in its own process on the PostgreSQL server: the portal upload
 * (raw body, checked and stored chunk by chunk in one transaction) and the officers' download
 * (chunks read one query at a time, hashed on the way). Peak RSS growth is the process's high-water
 * mark during the transfer less its RSS just before: flat memory means it does not grow with the file.
 */
async function mediaTable(quick: boolean): Promise<BenchmarkTable> {
  const databaseUrl = await freshBenchDatabase("aopd_bench_media");
  const port = await freePort();
  const aopd = await startProcess(
    "subgraphs/aopd/src/main.ts",
    {
      AOPD_PORT: String(port),
      DATABASE_URL: databaseUrl,
      AOPD_EXPIRY_INTERVAL_SECONDS: "0",
      AOPD_RATE_LIMIT_PER_CLIENT: "0",
      AOPD_RATE_LIMIT_PER_CREDENTIAL: "0",
      INSECURE_DEVELOPMENT_IDENTITY: "true",
    },
    `http://127.0.0.1:${port}/health/ready`,
  );
  const origin = `http://127.0.0.1:${port}`;
  const requestProof = async () => {
    const response = await fetch(`${origin}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation { aopd { requestMediaProof(input: { customerId: "BENCH", asset: DTI4H95J0R2X, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }) { id portalUrl } } }`,
      }),
    });
    const { data } = (await response.json()) as { data: { aopd: { requestMediaProof: { id: string; portalUrl: string } } } };
    return { id: data.aopd.requestMediaProof.id, token: data.aopd.requestMediaProof.portalUrl.split("/").pop()! };
  };
  const pid = aopd.child.pid!;
  const sizes = quick ? [10_000_000] : [10_000_000, 100_000_000];
  const rows: (string | number)[][] = [];
  try {
    // Warm-up, so that the measured transfers are not the first through the JIT.
    const warm = await requestProof();
    await upload(`${origin}/portal/api/proof/${warm.token}/media`, 2_000_000);
    await download(`${origin}/aopd/media/${warm.id}`);
    for (const size of sizes) {
      const proof = await requestProof();
      resetPeak(pid);
      let before = memoryKb(pid, "VmRSS");
      let started = performance.now();
      const sent = await upload(`${origin}/portal/api/proof/${proof.token}/media`, size);
      const uploadSeconds = (performance.now() - started) / 1000;
      const uploadGrowth = (memoryKb(pid, "VmHWM") - before) / 1024;
      if (sent.status !== 200) throw new Error(`upload answered ${sent.status}`);
      resetPeak(pid);
      before = memoryKb(pid, "VmRSS");
      started = performance.now();
      const received = await download(`${origin}/aopd/media/${proof.id}`);
      const downloadSeconds = (performance.now() - started) / 1000;
      const downloadGrowth = (memoryKb(pid, "VmHWM") - before) / 1024;
      if (received.bytes !== size || received.sha256 !== sent.sha256) throw new Error("the download differs from the upload");
      const megabytes = size / 1_000_000;
      console.log(
        `${megabytes} MB: up ${(megabytes / uploadSeconds).toFixed(1)} MB/s +${uploadGrowth.toFixed(1)} MiB, down ${(megabytes / downloadSeconds).toFixed(1)} MB/s +${downloadGrowth.toFixed(1)} MiB`,
      );
      rows.push(
        [`upload ${megabytes} MB video (portal)`, (megabytes / uploadSeconds).toFixed(1), uploadSeconds.toFixed(2), uploadGrowth.toFixed(1)],
        [`download ${megabytes} MB video (officer)`, (megabytes / downloadSeconds).toFixed(1), downloadSeconds.toFixed(2), downloadGrowth.toFixed(1)],
      );
    }
  } finally {
    await aopd.stop();
  }
  return {
    title: "Media proof transfer on one aopd (PostgreSQL server)",
    method:
      "aopd in its own process; one MP4 (an ftyp box and pseudo-random bytes, generated while sent) uploaded as the raw body of `POST /portal/api/proof/<credential>/media`, then downloaded with " +
      "`GET /aopd/media/<id>` (development identity, no gateway hop) and compared by SHA-256. 1 MiB chunks; loopback.",
    columns: ["transfer", "MB/s", "seconds", "peak RSS growth (MiB)"],
    rows,
    notes: ["Aim: memory flat whatever the file size (under 50 MB growth for a 100 MB video)."],
  };
}

export const mediaTransferScenario: BenchmarkScenario = {
  name: "media-transfer",
  run: async ({ quick }) => [await mediaTable(quick)],
};
