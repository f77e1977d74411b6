import { request as httpRequest, type ClientRequest } from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mp4Header, padded, pngImage, pollUntil } from "@compliance-graph/test-kit";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

/**
 * One link, or one client, cannot hog the uploads of a replica (issue 26, item 3): four uploads of
 * one credential, each sending a byte every 20 s, held all `AOPD_MAX_CONCURRENT_UPLOADS` slots for
 * minutes while every other customer got 503.
 */

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: { error?: string; reason?: string; proof?: { status: string } } };

interface Upload {
  /** Resolves with the answer, or "closed" when the connection ended without one. */
  answer: Promise<Answer | "closed">;
  /** Sends the rest of the file. */
  rest(): void;
  /** Sends `bytes` more bytes of the file. */
  send(bytes: number): void;
  abort(): void;
}

/** Starts an upload of `file` from `client` (as `x-forwarded-for`) and sends its first `sent` bytes. */
function startUpload(base: string, path: string, file: Buffer, sent: number, client: string, method = "POST"): Upload {
  let sending!: ClientRequest;
  let offset = sent;
  const answer = new Promise<Answer | "closed">((resolve) => {
    sending = httpRequest(new URL(path, base), { method, headers: { "content-length": String(file.length), "x-forwarded-for": client } }, (response) => {
      let text = "";
      response.on("data", (bytes) => (text += bytes));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text === "" ? {} : JSON.parse(text) }));
      response.on("error", () => resolve("closed"));
    });
    sending.on("error", () => resolve("closed"));
    sending.on("close", () => resolve("closed"));
  });
  sending.write(file.subarray(0, sent));
  return {
    answer,
    rest: () => sending.end(file.subarray(offset)),
    send: (bytes) => {
      if (sending.destroyed || sending.writableEnded) return;
      sending.write(file.subarray(offset, offset + bytes));
      offset += bytes;
    },
    abort: () => sending.destroy(),
  };
}

/** Sends one byte every `everyMs` until the upload is answered: the trickle of the attack, sped up. */
function trickle(upload: Upload, everyMs: number): Promise<Answer | "closed"> {
  const timer = setInterval(() => upload.send(1), everyMs);
  return upload.answer.finally(() => clearInterval(timer));
}

/** Polls the replica's upload state, which only polling can see, with the test kit's deadline. */
const until = (condition: () => boolean | Promise<boolean>) =>
  pollUntil(
    "the upload state",
    async () => condition(),
    (holds) => holds,
    { intervalMs: 10 },
  );

const requestProof = async (aopd: TestAopd) => {
  const { body } = await aopd.query(
    `mutation { aopd { requestMediaProof(input: { customerId: "C-FAIR", asset: DTI4H95J0R2X, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }) { id portalUrl } } }`,
  );
  const proof = (body.data!.aopd as { requestMediaProof: { id: string; portalUrl: string } }).requestMediaProof;
  return { id: proof.id, path: `/portal/api/proof/${proof.portalUrl.split("/").pop()!}/media` };
};
const chunksOf = async (aopd: TestAopd, id: string) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof_media_chunk WHERE proof_id = ${id}`.execute(aopd.services.db)).rows[0]!.n);

describe.each(databaseDrivers)("upload bounds per link and per client on %s", (driver) => {
  let aopd: TestAopd;
  const video = padded(mp4Header(), 400_000);

  beforeAll(async () => {
    aopd = await startTestAopd(driver, {
      config: {
        trustedProxyHops: 1,
        rateLimitPerClient: 0,
        rateLimitPerCredential: 0,
        maxConcurrentUploads: 4,
        maxUploadsPerClient: 2,
        uploadMinBytesPerSecond: 0,
        uploadIdleSeconds: 120,
      },
    });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("refuses a second upload of one link at once with 409 upload_in_progress and Retry-After, and takes the file once the first has ended", async () => {
    const proof = await requestProof(aopd);
    const first = startUpload(aopd.url, proof.path, video, 100_000, "198.51.100.1");
    await until(() => aopd.uploadSlots.inUse === 1);
    const second = await startUpload(aopd.url, proof.path, video, video.length, "198.51.100.2").answer;
    expect(second).toMatchObject({ status: 409, headers: { "retry-after": "5" }, body: { error: "upload_in_progress" } });
    first.rest();
    expect(await first.answer).toMatchObject({ status: 200, body: { proof: { status: "SUBMITTED" } } });
    // The same bytes again: the retry of the refused upload gets the proof as it stands.
    expect(await startUpload(aopd.url, proof.path, video, video.length, "198.51.100.2").answer).toMatchObject({ status: 200 });
  });

  it("refuses a third upload from one client address with 429 too_many_uploads and Retry-After, whatever the link", async () => {
    const proofs = [await requestProof(aopd), await requestProof(aopd), await requestProof(aopd)];
    const running = proofs.slice(0, 2).map((proof) => startUpload(aopd.url, proof.path, video, 100_000, "203.0.113.9"));
    await until(() => aopd.uploadSlots.inUse === 2);
    const third = await startUpload(aopd.url, proofs[2]!.path, video, video.length, "203.0.113.9").answer;
    expect(third).toMatchObject({ status: 429, headers: { "retry-after": "5" }, body: { error: "too_many_uploads" } });
    for (const upload of running) upload.rest();
    for (const upload of running) expect(await upload.answer).toMatchObject({ status: 200 });
    expect(await chunksOf(aopd, proofs[2]!.id)).toBe(0);
  });

  it("refuses a second officer PUT of one proof at once with 409 upload_in_progress", async () => {
    const proof = await requestProof(aopd);
    const officerPath = `/aopd/media/${proof.id}`;
    const first = startUpload(aopd.url, officerPath, video, 100_000, "192.0.2.1", "PUT");
    await until(() => aopd.uploadSlots.inUse === 1);
    expect(await startUpload(aopd.url, officerPath, video, video.length, "192.0.2.1", "PUT").answer).toMatchObject({
      status: 409,
      body: { error: "upload_in_progress" },
    });
    first.rest();
    expect(await first.answer).toMatchObject({ status: 200 });
  });
});

describe.each(databaseDrivers)("the minimum upload rate on %s", (driver) => {
  let aopd: TestAopd;
  const video = padded(mp4Header(), 400_000);

  beforeAll(async () => {
    aopd = await startTestAopd(driver, {
      config: { rateLimitPerClient: 0, rateLimitPerCredential: 0, uploadMinBytesPerSecond: 1_000, uploadRateWindowSeconds: 1, uploadIdleSeconds: 120 },
    });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("cuts off an upload that trickles below the rate with 408 upload_too_slow, closing the connection and keeping nothing; the link then takes a file", async () => {
    const proof = await requestProof(aopd);
    const answer = await trickle(startUpload(aopd.url, proof.path, video, 10, "127.0.0.1"), 50);
    expect(answer).toMatchObject({
      status: 408,
      headers: { connection: "close" },
      body: { error: "upload_too_slow", reason: expect.stringContaining("at least 1000 are required") },
    });
    await until(() => aopd.uploadSlots.inUse === 0);
    expect(await chunksOf(aopd, proof.id)).toBe(0);
    expect(await startUpload(aopd.url, proof.path, video, video.length, "127.0.0.1").answer).toMatchObject({
      status: 200,
      body: { proof: { status: "SUBMITTED" } },
    });
  });

  it("cuts off an upload that starts fast and then trickles: the rate is judged per window, not since the start", async () => {
    const proof = await requestProof(aopd);
    // 200 kB at once would carry an average since the start above 1000 B/s for over three minutes.
    const answer = await trickle(startUpload(aopd.url, proof.path, video, 200_000, "127.0.0.1"), 50);
    expect(answer).toMatchObject({ status: 408, body: { error: "upload_too_slow" } });
    expect(await chunksOf(aopd, proof.id)).toBe(0);
  });
});

describe("one link trickling, and uploads on two doors, on PostgreSQL", () => {
  // PostgreSQL only: on PGlite an upload holds the one connection, so every other query waits for
  // it whatever the bounds (docs/media-proofs.md); the minimum rate is what bounds that wait there.
  let aopd: TestAopd;
  const customers = 12;

  beforeAll(async () => {
    // The defaults, but a rate window long enough that the trickle outlives the test.
    aopd = await startTestAopd("postgres", {
      config: {
        trustedProxyHops: 1,
        rateLimitPerClient: 0,
        rateLimitPerCredential: 0,
        maxConcurrentUploads: 4,
        maxUploadsPerClient: 2,
        uploadRateWindowSeconds: 600,
      },
    });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("refuses an officer PUT while the customer's upload of the same proof is arriving: the row lock is waited for at most 2 s (409)", async () => {
    const proof = await requestProof(aopd);
    const video = padded(mp4Header(), 400_000);
    const customer = startUpload(aopd.url, proof.path, video, 100_000, "198.51.100.200");
    // Counted under different keys (link and proof id), as on two replicas: the row lock decides.
    await until(async () => {
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_locks WHERE relation = 'aopd_proof'::regclass AND mode = 'RowShareLock'`.execute(
        aopd.services.db,
      );
      return Number(rows[0]!.n) >= 1;
    });
    const officer = await startUpload(aopd.url, `/aopd/media/${proof.id}`, pngImage(8, 8), Number.MAX_SAFE_INTEGER, "192.0.2.1", "PUT").answer;
    expect(officer).toMatchObject({ status: 409, body: { error: "upload_in_progress" } });
    customer.rest();
    expect(await customer.answer).toMatchObject({ status: 200, body: { proof: { status: "SUBMITTED" } } });
  });

  it(`serves all ${customers} other customers and the officer's PUT while one link's four uploads trickle`, async () => {
    const attacked = await requestProof(aopd);
    const others = await Promise.all(Array.from({ length: customers }, () => requestProof(aopd)));
    const officerProof = await requestProof(aopd);
    const video = padded(mp4Header(), 400_000);
    const held = startUpload(aopd.url, attacked.path, video, 100, "203.0.113.66");
    const heldAnswer = trickle(held, 100);
    await until(() => aopd.uploadSlots.inUse === 1);
    const refused = await Promise.all(Array.from({ length: 3 }, () => trickle(startUpload(aopd.url, attacked.path, video, 100, "203.0.113.66"), 100)));
    expect(refused.map((answer) => (answer === "closed" ? answer : answer.status))).toEqual([409, 409, 409]);

    // The other customers, three at a time (the slots the trickle leaves), each from an address of its own.
    const statuses: number[] = [];
    for (let start = 0; start < customers; start += 3) {
      const batch = others
        .slice(start, start + 3)
        .map(
          (proof, index) =>
            startUpload(aopd.url, proof.path, pngImage(8, 8, { seed: start + index }), Number.MAX_SAFE_INTEGER, `198.51.100.${start + index + 10}`).answer,
        );
      for (const answer of await Promise.all(batch)) statuses.push(answer === "closed" ? 0 : answer.status);
    }
    const officer = await startUpload(aopd.url, `/aopd/media/${officerProof.id}`, pngImage(8, 8), Number.MAX_SAFE_INTEGER, "192.0.2.1", "PUT").answer;
    expect({ statuses, officer: officer === "closed" ? officer : officer.status }).toEqual({ statuses: Array(customers).fill(200), officer: 200 });

    // The trickle still holds its one slot: it was bounded, not merely outlasted.
    expect(aopd.uploadSlots.inUse).toBe(1);
    held.abort();
    expect(await heldAnswer).toBe("closed");
    await until(() => aopd.uploadSlots.inUse === 0);
    expect(await chunksOf(aopd, attacked.id)).toBe(0);
  });
});
