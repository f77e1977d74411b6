import { request as httpRequest, type ClientRequest } from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalApi } from "../support/portal-client.js";
import { mp4Header, padded, pngImage, pollUntil } from "@compliance-graph/test-kit";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

/** The bounds on uploads in flight: how many at once, and how long one may stall. */
describe("media upload limits", () => {
  let aopd: TestAopd;
  const requestProof = async () => {
    const { body } = await aopd.query(
      `mutation { aopd { requestMediaProof(input: { customerId: "C", asset: DTI4H95J0R2X, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }) { id portalUrl } } }`,
    );
    const proof = (body.data!.aopd as { requestMediaProof: { id: string; portalUrl: string } }).requestMediaProof;
    return { id: proof.id, token: proof.portalUrl.split("/").pop()! };
  };
  /** Starts an upload of `file` and sends only its first `sent` bytes; the answer resolves when one comes. */
  const startUpload = (token: string, file: Buffer, sent: number) => {
    let sending!: ClientRequest;
    const answer = new Promise<{ status: number; body: string } | "closed">((resolve) => {
      sending = httpRequest(
        new URL(`/portal/api/proof/${token}/media`, aopd.url),
        { method: "POST", headers: { "content-length": String(file.length) } },
        (response) => {
          let body = "";
          response.on("data", (bytes) => (body += bytes));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      sending.on("error", () => resolve("closed"));
      sending.on("close", () => resolve("closed"));
    });
    sending.write(file.subarray(0, sent));
    return { answer, rest: () => sending.end(file.subarray(sent)) };
  };
  /** Uploads lock their proof's row (`FOR UPDATE`): this waits until `count` hold it. */
  const lockedProofRows = async (count: number) => {
    for (;;) {
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_locks WHERE relation = 'aopd_proof'::regclass AND mode = 'RowShareLock'`.execute(
        aopd.services.db,
      );
      if (Number(rows[0]!.n) >= count) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  beforeAll(async () => {
    aopd = await startTestAopd("postgres", { config: { maxConcurrentUploads: 1, uploadIdleSeconds: 1, rateLimitPerClient: 0, rateLimitPerCredential: 0 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("answers service_unavailable with Retry-After when the replica's uploads are all in use, and takes the upload once one is free", async () => {
    const first = await requestProof();
    const second = await requestProof();
    const file = padded(mp4Header(), 200_000);
    const running = startUpload(first.token, file, 100_000);
    await lockedProofRows(1);
    const refused = await portalApi<{ error: string }>(aopd, `${second.token}/media`, { method: "POST", body: new Uint8Array(pngImage(4, 4)) });
    expect({ status: refused.status, error: refused.body.error, retryAfter: refused.headers.get("retry-after") }).toEqual({
      status: 503,
      error: "service_unavailable",
      retryAfter: "5",
    });
    running.rest();
    expect(await running.answer).toMatchObject({ status: 200 });
    expect((await portalApi(aopd, `${second.token}/media`, { method: "POST", body: new Uint8Array(pngImage(4, 4)) })).status).toBe(200);
  });

  it("cuts off an upload that stops sending, and keeps nothing of it", async () => {
    const { id, token } = await requestProof();
    const stalled = startUpload(token, padded(mp4Header(), 3_000_000), 1_500_000);
    // The server ends the stalled request after AOPD_UPLOAD_IDLE_SECONDS (1 s here).
    expect(await stalled.answer).toBe("closed");
    // The client sees the connection closed before the server has rolled the stalled upload back and
    // released its proof: until then the link answers 409 upload_in_progress, as it says to retry.
    const uploaded = await pollUntil(
      "the link taking a file after the stalled upload was released",
      () => portalApi<{ proof: { status: string }; error?: string }>(aopd, `${token}/media`, { method: "POST", body: new Uint8Array(pngImage(4, 4)) }),
      (answer) => !(answer.status === 409 && answer.body.error === "upload_in_progress"),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect({ status: uploaded.status, body: uploaded.body }).toMatchObject({ status: 200, body: { proof: { status: "SUBMITTED" } } });
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof_media_chunk WHERE proof_id = ${id}`.execute(aopd.services.db);
    expect(Number(rows[0]!.n)).toBe(1);
  });
});
