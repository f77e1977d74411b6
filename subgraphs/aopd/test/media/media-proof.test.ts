import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalApi } from "../support/portal-client.js";
import { jpegHeader, mp4Header, padded, pngImage, webmHeader } from "@compliance-graph/test-kit";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const fields = "id status address contentType byteSize sha256 uploadedAt assessment comment dueAt mediaUrl";

describe.each(databaseDrivers)("media proofs on %s", (driver) => {
  let aopd: TestAopd;
  const mutate = async (mutation: string, variables: Record<string, unknown>) => {
    const { body } = await aopd.query(`mutation${mutation}`, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return Object.values(body.data!.aopd as Record<string, Record<string, unknown>>)[0]!;
  };
  const requestProof = async () => {
    const proof = await mutate(`($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { ${fields} portalUrl } } }`, {
      input: { customerId: "CUST-MEDIA", asset: bitcoin, expectedAddress: address, comment: "hardware wallet" },
    });
    return { ...proof, id: proof.id as string, token: (proof.portalUrl as string).split("/").pop()! };
  };
  const upload = (token: string, file: Buffer, headers: Record<string, string> = {}) =>
    portalApi<{ proof?: { status: string; media: { uploaded: Record<string, unknown> | null } }; error?: string; reason?: string }>(aopd, `${token}/media`, {
      method: "POST",
      headers: { "content-type": "image/png", ...headers },
      body: new Uint8Array(file),
    });
  const officer = (id: string, init: RequestInit = {}) => fetch(new URL(`/aopd/media/${id}`, aopd.url), init);
  const chunkCount = async (id: string) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof_media_chunk WHERE proof_id = ${id}`.execute(aopd.services.db)).rows[0]!.n);

  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { mediaMaxImageBytes: 200_000, mediaMaxVideoBytes: 3_000_000 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("walks PENDING -> SUBMITTED (portal upload) -> VERIFIED (assessMediaProof), and the download is the upload byte for byte", async () => {
    const requested = await requestProof();
    expect(requested).toMatchObject({
      status: "PENDING",
      address,
      contentType: null,
      sha256: null,
      mediaUrl: `http://localhost:4000/aopd/media/${requested.id}`,
    });
    const view = await portalApi<{ kind: string; media: unknown }>(aopd, requested.token);
    expect(view.body).toMatchObject({ kind: "media", media: { accepts: { maxImageBytes: 200_000, maxVideoBytes: 3_000_000 }, uploaded: null } });

    const file = padded(mp4Header(), 2_500_000, 7);
    // The declared type is ignored: the bytes say MP4.
    const uploaded = await upload(requested.token, file, { "content-type": "image/png" });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.proof).toMatchObject({
      status: "SUBMITTED",
      media: { uploaded: { contentType: "video/mp4", byteSize: file.length, sha256: sha256(file) } },
    });
    expect(await chunkCount(requested.id)).toBe(3);

    const download = await officer(requested.id);
    expect(download.status).toBe(200);
    expect(
      Object.fromEntries(
        ["content-type", "content-length", "content-disposition", "x-content-type-options", "repr-digest"].map((name) => [name, download.headers.get(name)]),
      ),
    ).toEqual({
      "content-type": "video/mp4",
      "content-length": String(file.length),
      "content-disposition": `attachment; filename="proof-${requested.id}.mp4"`,
      "x-content-type-options": "nosniff",
      "repr-digest": `sha-256=:${createHash("sha256").update(file).digest("base64")}:`,
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
    const head = await officer(requested.id, { method: "HEAD" });
    expect([head.status, head.headers.get("content-type"), head.headers.get("x-content-type-options"), (await head.arrayBuffer()).byteLength]).toEqual([
      200,
      "video/mp4",
      "nosniff",
      0,
    ]);

    const assessed = await mutate(`($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED, comment: "address visible") { ${fields} } } }`, {
      id: requested.id,
    });
    expect(assessed).toMatchObject({
      status: "VERIFIED",
      assessment: "VERIFIED",
      comment: "hardware wallet",
      contentType: "video/mp4",
      byteSize: file.length,
      sha256: sha256(file),
      dueAt: null,
    });
    await expect(
      mutate(`($id: ID!) { aopd { assessMediaProof(id: $id, assessment: FAILED, reason: ADDRESS_NOT_SHOWN) { id } } }`, { id: requested.id }),
    ).rejects.toMatchObject({
      extensions: { code: "CONFLICT" },
    });
  });

  it("lists, filters and counts media proofs by is.media and shows them as AopdMediaProof", async () => {
    const requested = await requestProof();
    const file = pngImage(64, 48);
    await upload(requested.token, file);
    const { body } = await aopd.query(
      `query($sha: String!) { aopd { proofsCount(filter: { is: { media: { sha256: { ilike: $sha } } } }) proofs(filter: { is: { media: { contentType: { ilike: "image/%" } } } }) { __typename id ... on AopdMediaProof { contentType } } } }`,
      { sha: sha256(file) },
    );
    const { proofsCount, proofs } = body.data!.aopd as { proofsCount: number; proofs: { __typename: string; id: string; contentType: string }[] };
    expect(proofsCount).toBe(1);
    expect(proofs).toContainEqual({ __typename: "AopdMediaProof", id: requested.id, contentType: "image/png" });
  });

  it("lets an officer attach the file with PUT (proofs:write) and reads the same bytes back", async () => {
    const requested = await requestProof();
    const file = padded(webmHeader(), 10_000, 3);
    const put = await officer(requested.id, { method: "PUT", body: new Uint8Array(file) });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { proof: Record<string, unknown> }).proof).toMatchObject({
      status: "SUBMITTED",
      contentType: "video/webm",
      sha256: sha256(file),
    });
    expect(Buffer.from(await (await officer(requested.id)).arrayBuffer()).equals(file)).toBe(true);
  });

  it("answers the same upload repeated after a lost answer with the same proof, and another file with 409 not_pending", async () => {
    const requested = await requestProof();
    const file = padded(jpegHeader(800, 600), 50_000, 5);
    const first = await upload(requested.token, file);
    const again = await upload(requested.token, file);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await upload(requested.token, padded(jpegHeader(800, 600), 50_000, 6));
    expect(other).toMatchObject({ status: 409, body: { error: "not_pending", status: "SUBMITTED" } });
    await mutate(`($id: ID!) { aopd { assessMediaProof(id: $id, assessment: FAILED, reason: ADDRESS_NOT_SHOWN) { id } } }`, { id: requested.id });
    expect((await upload(requested.token, file)).body.proof).toMatchObject({ status: "FAILED" });
    expect((await upload(requested.token, pngImage(2, 2))).status).toBe(409);
    expect(await chunkCount(requested.id)).toBe(1);
  });

  it("refuses bad files with a reason and stores nothing", async () => {
    const requested = await requestProof();
    const cases: [Buffer, number, string][] = [
      [Buffer.from("GIF89a".padEnd(200, "\0"), "latin1"), 415, "unsupported_media_type"],
      [Buffer.from("<html><script>alert(1)</script>".padEnd(200)), 415, "unsupported_media_type"],
      [pngImage(20_000, 20_000, { pixels: false }), 400, "image_too_large"],
      [padded(jpegHeader(100, 100), 200_001), 413, "media_too_large"],
      [padded(mp4Header(), 3_000_001), 413, "media_too_large"],
      [Buffer.alloc(0), 400, "empty_media"],
    ];
    for (const [file, status, error] of cases) {
      const answer = await upload(requested.token, file);
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error });
      expect(answer.body.reason).toEqual(expect.any(String));
    }
    expect(await chunkCount(requested.id)).toBe(0);
    expect((await portalApi<{ status: string }>(aopd, requested.token)).body.status).toBe("PENDING");
  });

  it("refuses a body announced larger than any accepted file before reading it", async () => {
    const requested = await requestProof();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const target = new URL(`/portal/api/proof/${requested.token}/media`, aopd.url);
      const sending = httpRequest(target, { method: "POST", headers: { "content-length": String(3_000_001) } }, (response) => {
        let body = "";
        response.on("data", (bytes) => (body += bytes));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      sending.on("error", reject);
      sending.write(mp4Header());
      sending.end();
    }).catch((error: unknown) => ({ status: 0, body: String(error) }));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "media_too_large" });
  });

  it("leaves nothing behind when an upload is interrupted midway, and takes the next one whole", async () => {
    const requested = await requestProof();
    const file = padded(mp4Header(), 2_000_000, 9);
    await new Promise<void>((resolve) => {
      const target = new URL(`/portal/api/proof/${requested.token}/media`, aopd.url);
      const sending = httpRequest(target, { method: "POST", headers: { "content-length": String(file.length) } });
      sending.on("error", () => resolve());
      // Past the first stored chunk, then the connection drops.
      sending.write(file.subarray(0, 1_500_000), () => {
        sending.destroy();
        resolve();
      });
    });
    // The next upload locks the proof row, so it waits until the interrupted transaction has rolled back.
    const retried = await upload(requested.token, file);
    expect(retried.body.proof).toMatchObject({ status: "SUBMITTED", media: { uploaded: { byteSize: file.length, sha256: sha256(file) } } });
    expect(await chunkCount(requested.id)).toBe(2);
    expect(Buffer.from(await (await officer(requested.id)).arrayBuffer()).equals(file)).toBe(true);
  });

  it("keeps the media within its retention, and deletes it with its proof afterwards (no orphaned chunks)", async () => {
    const requested = await requestProof();
    await upload(requested.token, padded(mp4Header(), 1_500_000));
    expect(await chunkCount(requested.id)).toBe(2);
    await expect(aopd.services.db.deleteFrom("aopd_proof").where("id", "=", requested.id).execute()).rejects.toThrow(/within its retention of 5 years/);
    await expect(aopd.services.db.deleteFrom("aopd_proof_media_chunk").where("proof_id", "=", requested.id).execute()).rejects.toThrow(/within its retention/);
    expect(await chunkCount(requested.id)).toBe(2);
    // Last changed six years ago: past the default retention of five.
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ updated_at: new Date(Date.now() - 6 * 366 * 86_400_000) })
      .where("id", "=", requested.id)
      .execute();
    await aopd.services.db.deleteFrom("aopd_proof").where("id", "=", requested.id).execute();
    expect(await chunkCount(requested.id)).toBe(0);
  });

  it("refuses a file for another kind of proof, unknown ids and methods", async () => {
    const { body } = await aopd.query(`mutation { aopd { requestAoppProof(input: { customerId: "C", asset: DTI4H95J0R2X }) { portalUrl } } }`);
    const token = (body.data!.aopd as { requestAoppProof: { portalUrl: string } }).requestAoppProof.portalUrl.split("/").pop()!;
    expect((await upload(token, pngImage(2, 2))).body).toMatchObject({ error: "wrong_kind" });
    expect((await officer("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await officer("%2e%2e%2f%2e%2e%2fgraphql")).status).toBe(404);
    expect((await officer((await requestProof()).id)).status).toBe(404);
    expect((await officer((await requestProof()).id, { method: "DELETE" })).status).toBe(405);
  });

  it("refuses an upload after the due time", async () => {
    const requested = await requestProof();
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ due_at: new Date(Date.now() - 1_000) })
      .where("id", "=", requested.id)
      .execute();
    expect((await upload(requested.token, pngImage(2, 2))).body).toMatchObject({ error: "expired" });
  });
});
