import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalApi } from "../support/portal-client.js";
import { pngImage } from "@compliance-graph/test-kit";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

/**
 * A media proof's file comes from a customer and is opened by an officer in a browser that is
 * logged in to internal tools. Each test is an attempt to get a file served as something the
 * browser would render or run, to plant a file on another proof, or to read one without the
 * officers' route.
 */
describe("attacks through media uploads", () => {
  let aopd: TestAopd;
  const requestProof = async () => {
    const { body } = await aopd.query(
      `mutation { aopd { requestMediaProof(input: { customerId: "C", asset: DTI4H95J0R2X, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }) { id portalUrl } } }`,
    );
    const proof = (body.data!.aopd as { requestMediaProof: { id: string; portalUrl: string } }).requestMediaProof;
    return { id: proof.id, token: proof.portalUrl.split("/").pop()! };
  };
  const upload = (token: string, file: Buffer, contentType: string) =>
    portalApi<{ error?: string }>(aopd, `${token}/media`, { method: "POST", headers: { "content-type": contentType }, body: new Uint8Array(file) });

  beforeAll(async () => {
    aopd = await startTestAopd("postgres", { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("an HTML page or SVG script declared as image/png is refused: the content decides, not the claim", async () => {
    const { token } = await requestProof();
    for (const page of ["<!doctype html><script>fetch('/graphql')</script>", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>']) {
      expect((await upload(token, Buffer.from(page.padEnd(200)), "image/png")).body.error).toBe("unsupported_media_type");
    }
  });

  it("a PNG/HTML polyglot is served only as a PNG download that no browser renders or sniffs", async () => {
    const { id, token } = await requestProof();
    const polyglot = Buffer.concat([pngImage(8, 8), Buffer.from("<html><script>alert(document.cookie)</script></html>")]);
    expect((await upload(token, polyglot, "text/html")).status).toBe(200);
    const download = await fetch(new URL(`/aopd/media/${id}?download=inline&type=text/html`, aopd.url), { headers: { accept: "text/html" } });
    expect({
      type: download.headers.get("content-type"),
      disposition: download.headers.get("content-disposition"),
      sniff: download.headers.get("x-content-type-options"),
      csp: download.headers.get("content-security-policy"),
    }).toEqual({ type: "image/png", disposition: `attachment; filename="proof-${id}.png"`, sniff: "nosniff", csp: "default-src 'none'; sandbox" });
  });

  it("one proof's credential cannot put a file on another proof, and the public API never hands a file out", async () => {
    const mine = await requestProof();
    const victim = await requestProof();
    await upload(mine.token, pngImage(4, 4), "image/png");
    const rows = await aopd.services.db.selectFrom("aopd_proof").select(["id", "status"]).where("id", "in", [mine.id, victim.id]).execute();
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({ [mine.id]: "SUBMITTED", [victim.id]: "PENDING" });
    expect((await portalApi(aopd, `${mine.token}/media`, { method: "GET" })).status).toBe(405);
    expect((await portalApi(aopd, `${victim.id}/media`, { method: "POST", body: new Uint8Array(pngImage(4, 4)) })).body).toMatchObject({
      error: "unknown_proof",
    });
  });

  it("a decompression bomb is refused before any of it is stored", async () => {
    const { id, token } = await requestProof();
    expect((await upload(token, pngImage(60_000, 60_000, { pixels: false }), "image/png")).body.error).toBe("image_too_large");
    const { count } = await aopd.services.db
      .selectFrom("aopd_proof_media_chunk")
      .select((eb) => eb.fn.countAll().as("count"))
      .where("proof_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
  });
});
