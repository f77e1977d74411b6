import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { HDKey } from "@scure/bip32";
import pg from "pg";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  ethereumAddressOf,
  multisigVault,
  p2wpkhAddress,
  signPsbtAsCoordinator,
  vaultKeys,
  publicKeyOf,
  signBip322PublicKeyHash,
  signPersonalMessage,
  signSolanaMessage,
  signTronMessage,
  solanaAddressOf,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { launchBrowser, openPage } from "./support/browser.js";
import { headingShown, portalProofs, type RequestedProof } from "./support/portal-proofs.js";

const bitcoinKey = testSecretKey("portal page bitcoin");
const bitcoinAddress = p2wpkhAddress(publicKeyOf(bitcoinKey));
const etherKey = testSecretKey("portal page ether");
const etherAddress = ethereumAddressOf(etherKey);
const allowedSite = "https://vasp.example";
const themeColour = "rgb(123, 45, 67)";

/**
 * The customer portal in a real browser (Debian's Chromium), against the whole stack: gateway,
 * identity provider, real aopd on PostgreSQL. Each test requests its proof through the gateway as a
 * compliance team would, opens the page by its one-time link and checks the outcome through /graphql.
 */
describe("the customer portal in a browser", () => {
  let stack: Stack;
  let browser: Browser;
  let apiToken: string;
  let portalBase: string;
  let folder: string;
  let databaseUrl: string;
  let proofs: ReturnType<typeof portalProofs>;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "cg-portal-"));
    // The operator's own theme and logo, replacing the shipped ones without a rebuild.
    const shipped = JSON.parse(await readFile(new URL("../../subgraphs/aopd/portal/theme.json", import.meta.url), "utf8")) as {
      colors: Record<string, string>;
    };
    await writeFile(join(folder, "theme.json"), JSON.stringify({ ...shipped, colors: { ...shipped.colors, primary: "#7b2d43" } }));
    await writeFile(
      join(folder, "logo.svg"),
      `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32"><title>Example VASP</title><rect width="120" height="32" fill="#7b2d43"/></svg>`,
    );
    databaseUrl = await createTestDatabase("portalpage");
    stack = await startStack({
      realAopd: {
        databaseUrl,
        seedDemoProofs: 0,
        config: { themeFile: join(folder, "theme.json"), logoFile: join(folder, "logo.svg"), portalRedirectOrigins: [allowedSite], expiryIntervalSeconds: 1 },
      },
    });
    portalBase = new URL(stack.subgraphUrls.aopd).origin;
    apiToken = await stack.fetchToken();
    proofs = portalProofs(stack, () => apiToken);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await rm(folder, { recursive: true, force: true });
  });

  const graphql = <T>(query: string, variables?: Record<string, unknown>) => proofs.graphql<T>(query, variables);
  const requestSignatureProof = (input: Record<string, unknown>) => proofs.requestSignatureProof(input);
  const statusOf = (id: string) => proofs.statusOf(id);

  const pageOf = (requested: RequestedProof, query = "") => `${portalBase}/portal/${requested.token}${query}`;
  const heading = headingShown;

  it("verifies a Bitcoin signature pasted from any wallet, as /graphql then shows", async () => {
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(requested));
    expect(await page.getByLabel("Message to sign").inputValue()).toBe(requested.message);
    expect(await page.getByLabel("Your address").inputValue()).toBe(bitcoinAddress);
    expect(await page.getByLabel("Your address").getAttribute("readonly")).not.toBeNull();
    await page.getByRole("link", { name: "Open in wallet" }).waitFor();
    expect(await page.getByRole("link", { name: "Open in wallet" }).getAttribute("href")).toMatch(/^aopp:\?/);
    await page.getByRole("img", { name: /QR code of the AOPP request/ }).waitFor();
    await page.getByLabel("Signature").fill(signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, requested.message));
    await page.getByRole("button", { name: "Submit proof" }).click();
    await heading(page, "Your proof is verified");
    expect(await statusOf(requested.id)).toBe("VERIFIED");
  });

  it("offers a 2-of-3 vault its PSBT with a QR code and verifies the signed PSBT file loaded back", async () => {
    const { secrets, publicKeys } = vaultKeys("portal page vault", 3);
    const vault = multisigVault(2, publicKeys, { sorted: true });
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: vault.address });
    const page = await openPage(browser, pageOf(requested));
    await page.getByRole("heading", { name: "Multisig vault or PSBT wallet" }).waitFor();
    await page.getByRole("img", { name: /QR code of the PSBT/ }).waitFor();
    const offered = await page.getByLabel("PSBT to sign").inputValue();
    expect(offered).toMatch(/^cHNidP8/);
    // The coordinator's signed PSBT as the binary file it saves.
    const file = join(folder, "signed.psbt");
    await writeFile(file, Buffer.from(signPsbtAsCoordinator(vault, offered, [secrets[0]!, secrets[2]!]), "base64"));
    await page.getByLabel("Load the signed PSBT file").setInputFiles(file);
    await page.waitForFunction(
      () => (document.querySelector("textarea[name=signature]") as HTMLTextAreaElement | null)?.value.startsWith("cHNidP8"),
      undefined,
      { timeout: 30_000 },
    );
    await page.getByRole("button", { name: "Submit proof" }).click();
    await heading(page, "Your proof is verified");
    expect(await statusOf(requested.id)).toBe("VERIFIED");
  });

  it("verifies Solana and TRON token signatures pasted by hand, with no AOPP link offered where AOPP has none", async () => {
    const solanaKey = testSecretKey("portal page solana");
    const tronKey = testSecretKey("portal page tron");
    const cases = [
      { asset: "DTI5R3XFPZSM", address: solanaAddressOf(solanaKey), sign: (message: string) => base58.encode(signSolanaMessage(solanaKey, message)) },
      { asset: "DTIC9N6ZVN7S", address: tronAddressOf(tronKey), sign: (message: string) => `0x${bytesToHex(signTronMessage(tronKey, message))}` },
    ];
    for (const { asset, address, sign } of cases) {
      const requested = await requestSignatureProof({ asset, expectedAddress: address });
      const page = await openPage(browser, pageOf(requested));
      expect(await page.getByLabel("Your address").inputValue()).toBe(address);
      expect(await page.getByRole("link", { name: "Open in wallet" }).count()).toBe(0);
      await page.getByLabel("Signature").fill(sign(requested.message));
      await page.getByRole("button", { name: "Submit proof" }).click();
      await heading(page, "Your proof is verified");
      expect(await statusOf(requested.id), asset).toBe("VERIFIED");
    }
  });

  it("shows why a wrong signature is refused, in the customer's words, and changes nothing", async () => {
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(requested));
    const otherKey = testSecretKey("somebody else");
    await page.getByLabel("Signature").fill(signBip322PublicKeyHash(otherKey, bitcoinAddress, requested.message));
    await page.getByRole("button", { name: "Submit proof" }).click();
    await page.getByRole("alert").filter({ hasText: "The signature does not verify" }).waitFor();
    expect(await statusOf(requested.id)).toBe("PENDING");
  });

  it("asks for the xpub when the request needs one, and verifies once it derives the address", async () => {
    const account = HDKey.fromMasterSeed(testSecretKey("portal page wallet seed")).derive("m/84'/0'/0'");
    const child = account.deriveChild(0).deriveChild(3);
    const address = p2wpkhAddress(child.publicKey!);
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address, xpubRequired: true });
    const page = await openPage(browser, pageOf(requested));
    await page.getByLabel("Signature").fill(signBip322PublicKeyHash(child.privateKey!, address, requested.message));
    await page.getByRole("button", { name: "Submit proof" }).click();
    await page.getByRole("alert").filter({ hasText: "needs the extended public key" }).waitFor();
    await page.getByLabel("Extended public key (xpub) of your wallet").fill(account.publicExtendedKey);
    await page.getByRole("button", { name: "Submit proof" }).click();
    await heading(page, "Your proof is verified");
    expect(await statusOf(requested.id)).toBe("VERIFIED");
  });

  it("signs with a browser wallet through EIP-1193 for an Ethereum address", async () => {
    const requested = await requestSignatureProof({ asset: "DTIX9J9K872S", expectedAddress: etherAddress });
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      // A wallet in the page, backed by a real key held by the test.
      await page.exposeFunction("testWalletSign", (hexMessage: string) => {
        const message = Buffer.from(hexMessage.slice(2), "hex").toString("utf8");
        return `0x${Buffer.from(signPersonalMessage(etherKey, message)).toString("hex")}`;
      });
      await page.addInitScript((address: string) => {
        const sign = (window as unknown as { testWalletSign: (hex: string) => Promise<string> }).testWalletSign;
        (window as unknown as { ethereum: unknown }).ethereum = {
          request: async ({ method, params }: { method: string; params?: string[] }) => {
            if (method === "eth_requestAccounts") return [address];
            if (method === "personal_sign") return sign(params![0]!);
            throw new Error(`unsupported method ${method}`);
          },
        };
      }, etherAddress);
    });
    await page.getByRole("button", { name: "Sign with browser wallet" }).click();
    await heading(page, "Your proof is verified");
    expect(await statusOf(requested.id)).toBe("VERIFIED");
  });

  it("takes a Satoshi test transaction id and moves the proof to SUBMITTED", async () => {
    const data = await graphql<{ aopd: { requestSatoshiProof: { id: string; amount: string; portalUrl: string } } }>(
      `
        mutation ($a: String!) {
          aopd {
            requestSatoshiProof(
              input: { customerId: "CUST-PORTAL", asset: DTI4H95J0R2X, senderAddress: $a, depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h" }
            ) {
              id
              amount
              portalUrl
            }
          }
        }
      `,
      { a: bitcoinAddress },
    );
    const proof = data.aopd.requestSatoshiProof;
    const page = await openPage(browser, `${portalBase}${new URL(proof.portalUrl).pathname}`);
    await page.getByText(proof.amount, { exact: true }).waitFor();
    await page.getByText("bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h", { exact: true }).waitFor();
    await page.getByRole("img", { name: "QR code of the payment request" }).waitFor();
    await page.getByLabel("Transaction id").fill("a".repeat(64));
    await page.getByRole("button", { name: "Report transaction" }).click();
    await heading(page, "Your transaction was received");
    expect(await statusOf(proof.id)).toBe("SUBMITTED");
  });

  it("updates by itself when the wallet posts the AOPP callback while the page is open", async () => {
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(requested));
    await page.getByRole("button", { name: "Submit proof" }).waitFor();
    const answer = await fetch(`${portalBase}/aopp/callback/${requested.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 0, address: bitcoinAddress, signature: signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, requested.message) }),
    });
    expect(answer.status).toBe(204);
    await heading(page, "Your proof is verified");
  });

  it("speaks the browser's language and switches on request", async () => {
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(requested), { locale: "de-DE" });
    await heading(page, "Nachweis der Kontrolle über Ihre Adresse");
    await page.getByLabel("Zu signierende Nachricht").waitFor();
    await page.getByLabel("Sprache").selectOption("en");
    await heading(page, "Prove that you control your address");
    await page.getByLabel("Message to sign").waitFor();
  });

  it("applies the operator's theme and logo", async () => {
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(requested));
    const button = page.getByRole("button", { name: "Submit proof" });
    await button.waitFor();
    expect(await button.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(themeColour);
    const logo = await page.evaluate(async () => (await fetch("/portal/logo.svg")).text());
    expect(logo).toContain("Example VASP");
  });

  it("sends the customer back after success only to an allowed site", async () => {
    const allowed = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(allowed, `?redirect=${encodeURIComponent(`${allowedSite}/done`)}`), {}, async (page) => {
      await page.route(`${allowedSite}/**`, (route) => route.fulfill({ contentType: "text/html", body: "<h1>Back at the VASP</h1>" }));
    });
    await page.getByLabel("Signature").fill(signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, allowed.message));
    await page.getByRole("button", { name: "Submit proof" }).click();
    await page.getByRole("link", { name: "Return to vasp.example" }).waitFor();
    await page.waitForURL(`${allowedSite}/done`);

    const refused = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const other = await openPage(browser, pageOf(refused, `?redirect=${encodeURIComponent("https://evil.example/steal")}`));
    await other.getByLabel("Signature").fill(signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, refused.message));
    await other.getByRole("button", { name: "Submit proof" }).click();
    await heading(other, "Your proof is verified");
    expect(await other.getByRole("link", { name: /Return to/ }).count()).toBe(0);
    expect(other.url()).toContain("/portal/");
  });

  it("says plainly when a link is unknown or its proof has expired", async () => {
    for (const path of [`/portal/${"A".repeat(43)}`, "/portal/not-a-link"]) {
      const page = await openPage(browser, `${portalBase}${path}`);
      await heading(page, "This link is not valid");
    }
    const requested = await requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: bitcoinAddress });
    const page = await openPage(browser, pageOf(requested));
    await page.getByRole("button", { name: "Submit proof" }).waitFor();
    // The due time passes; the expiry job expires the proof and the open page learns of it.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("UPDATE aopd_proof SET due_at = now() - interval '1 second' WHERE id = $1", [requested.id]);
    await client.end();
    await heading(page, "This proof has expired");
  });
});
