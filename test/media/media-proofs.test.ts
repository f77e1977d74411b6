import { createHash } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, padded, pngImage, readWorkbook } from "@compliance-graph/test-kit";
import { launchBrowser, openPage } from "../portal/support/browser.js";
import { startStack, type Stack } from "../support/start-stack.js";
import { awaitLive } from "../subscriptions/support/await-live.js";
import { openProofWriter } from "../subscriptions/support/proof-writer.js";
import { modernClient, subscribeModern } from "../subscriptions/support/subscription-clients.js";

const bitcoinAddress = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * A media proof end to end: requested through /graphql, the file uploaded by the customer in a real
 * browser (Debian's Chromium), each transition delivered to a subscriber, reviewed through
 * /graphql, downloaded through the gateway byte for byte, and exported as XLSX.
 */
describe("media proofs across the stack", () => {
  let stack: Stack;
  let browser: Browser;
  let apiToken: string;
  let readerToken: string;
  let portalBase: string;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("mediaproofs");
    stack = await startStack({
      realAopd: { databaseUrl, seedDemoProofs: 0 },
      extraClients: [{ clientId: "reader", clientSecret: "reader-secret", roles: ["proofs:read"] }],
    });
    portalBase = new URL(stack.subgraphUrls.aopd).origin;
    apiToken = await stack.fetchToken();
    readerToken = await stack.fetchToken("reader", "reader-secret");
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const { body } = await stack.query(query, apiToken, variables);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data as T;
  }
  const media = (id: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${stack.gateway.baseUrl}/aopd/media/${id}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers } });

  it("takes the upload in the browser, tells subscribers each transition, is reviewed through /graphql and downloads byte for byte", async () => {
    const customerId = `CUST-MEDIA-${Date.now()}`;
    const client = modernClient(stack.gateway.url, apiToken);
    const received = subscribeModern(
      client,
      `subscription($filter: AopdProofFilterInput) { aopdProofs(filter: $filter) { id status eventCursor ... on AopdMediaProof { contentType byteSize sha256 assessment } } }`,
      { filter: { is: { any: { customerId: { eq: customerId } } } } },
    );
    // Live once a probe proof of the same customer arrives; the probes are left out below.
    const writer = await openProofWriter(databaseUrl);
    await awaitLive(writer, received, { customerId });
    await writer.close();
    const requested = await graphql<{ aopd: { requestMediaProof: { id: string; portalUrl: string; mediaUrl: string } } }>(
      `
        mutation ($input: AopdRequestMediaProofInput!) {
          aopd {
            requestMediaProof(input: $input) {
              id
              portalUrl
              mediaUrl
            }
          }
        }
      `,
      { input: { customerId, asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress, comment: "hardware wallet" } },
    ).then((data) => data.aopd.requestMediaProof);
    const { id } = requested;
    expect(requested.mediaUrl).toMatch(new RegExp(`/aopd/media/${id}$`));

    const file = padded(pngImage(320, 240), 400_000, 11);
    const page = await openPage(browser, `${portalBase}/portal/${new URL(requested.portalUrl).pathname.split("/").at(-1)}`);
    await page.getByRole("heading", { name: "Upload a screenshot or video" }).waitFor();
    expect(await page.getByText(bitcoinAddress).count()).toBeGreaterThan(0);
    await page.getByLabel("Screenshot or video", { exact: true }).setInputFiles({ name: "wallet.txt", mimeType: "text/plain", buffer: file });
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("heading", { name: "Your file was received" }).waitFor();
    expect(await page.getByRole("status").first().textContent()).toContain("Received, being checked");

    await graphql(
      `
        mutation ($id: ID!) {
          aopd {
            assessMediaProof(id: $id, assessment: VERIFIED, comment: "address visible in wallet") {
              id
            }
          }
        }
      `,
      { id },
    );
    await page.getByRole("heading", { name: "Your proof is verified" }).waitFor();

    const ofThisProof = () => received.results.map((result) => result.data?.aopdProofs as Record<string, unknown>).filter((event) => event.id === id);
    await received.until(() => ofThisProof().length >= 3);
    const events = ofThisProof();
    expect(events.map(({ eventCursor: _cursor, ...event }) => event)).toEqual([
      { id, status: "PENDING", contentType: null, byteSize: null, sha256: null, assessment: null },
      { id, status: "SUBMITTED", contentType: "image/png", byteSize: file.length, sha256: sha256(file), assessment: null },
      { id, status: "VERIFIED", contentType: "image/png", byteSize: file.length, sha256: sha256(file), assessment: "VERIFIED" },
    ]);
    received.stop();
    await client.dispose();

    const download = await media(id, apiToken);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="proof-${id}.png"`);
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);

    const xlsx = await graphql<{ aopd: { proofsAsXlsx: string } }>(
      `
        query ($id: String!) {
          aopd {
            proofsAsXlsx(filter: { is: { any: { id: { eq: $id } } } })
          }
        }
      `,
      { id },
    );
    const workbook = Buffer.from(xlsx.aopd.proofsAsXlsx, "base64");
    const [sheet] = readWorkbook(workbook);
    const [headers, row] = sheet!.rows.map((cells) => cells.map((cell) => cell?.v));
    const cell = (header: string) => row![headers!.indexOf(header)];
    expect({
      kind: cell("Kind"),
      status: cell("Status"),
      type: cell("Media type"),
      size: cell("Media size (bytes)"),
      hash: cell("Media SHA-256"),
      assessment: cell("Assessment"),
    }).toEqual({
      kind: "media",
      status: "VERIFIED",
      type: "image/png",
      size: String(file.length),
      hash: sha256(file),
      assessment: "VERIFIED",
    });
    // The file itself is not in the export: the workbook is far smaller than the (incompressible) file.
    expect(workbook.length).toBeLessThan(file.length / 10);
  });

  it("lets an officer attach a file through the gateway, and needs a valid token and the right role for each direction", async () => {
    const { id } = await graphql<{ aopd: { requestMediaProof: { id: string } } }>(
      `mutation { aopd { requestMediaProof(input: { customerId: "CUST-OFFICER", asset: DTI4H95J0R2X, expectedAddress: "${bitcoinAddress}" }) { id } } }`,
    ).then((data) => data.aopd.requestMediaProof);
    const file = pngImage(16, 16);
    expect((await media(id, undefined, { method: "PUT", body: new Uint8Array(file) })).status).toBe(401);
    expect((await media(id, "not-a-token", { method: "PUT", body: new Uint8Array(file) })).status).toBe(401);
    const refused = await media(id, readerToken, { method: "PUT", body: new Uint8Array(file) });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: { error: "forbidden", reason: "This needs the role proofs:write." },
    });

    const put = await media(id, apiToken, { method: "PUT", body: new Uint8Array(file) });
    expect(put.status).toBe(200);
    const { aopd } = await graphql<{ aopd: { proofs: { status: string; sha256: string }[] } }>(
      `
        query ($id: String!) {
          aopd {
            proofs(filter: { is: { any: { id: { eq: $id } } } }) {
              status
              ... on AopdMediaProof {
                sha256
              }
            }
          }
        }
      `,
      { id },
    );
    expect(aopd.proofs).toEqual([{ status: "SUBMITTED", sha256: sha256(file) }]);

    expect((await media(id, undefined)).status).toBe(401);
    expect((await media(id, readerToken)).status).toBe(403);
    expect(Buffer.from(await (await media(id, apiToken)).arrayBuffer()).equals(file)).toBe(true);
    // aopd itself answers nothing without the gateway's internal token.
    expect((await fetch(`${portalBase}/aopd/media/${id}`, { headers: { authorization: `Bearer ${apiToken}` } })).status).toBe(401);
  });

  it("shows a refused file's reason in the customer's language and keeps the upload open", async () => {
    const { portalUrl } = await graphql<{ aopd: { requestMediaProof: { portalUrl: string } } }>(
      `mutation { aopd { requestMediaProof(input: { customerId: "CUST-REFUSED", asset: DTI4H95J0R2X, expectedAddress: "${bitcoinAddress}" }) { portalUrl } } }`,
    ).then((data) => data.aopd.requestMediaProof);
    const page = await openPage(browser, `${portalBase}/portal/${new URL(portalUrl).pathname.split("/").at(-1)}`, { locale: "de-DE" });
    await page.getByRole("heading", { name: "Screenshot oder Video hochladen" }).waitFor();
    // A GIF named and typed as a PNG: the content decides.
    await page
      .getByLabel("Screenshot oder Video", { exact: true })
      .setInputFiles({ name: "wallet.png", mimeType: "image/png", buffer: Buffer.from("GIF89a".padEnd(400, "\0"), "latin1") });
    await page.getByRole("button", { name: "Hochladen" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Diese Art von Datei wird nicht angenommen");
    expect(await page.getByRole("button", { name: "Hochladen" }).isEnabled()).toBe(true);
  });
});
