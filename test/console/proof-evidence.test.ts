import { readFile } from "node:fs/promises";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "@compliance-graph/aopd";
import {
  anvilAccounts,
  createTestDatabase,
  erc1271WalletBytecode,
  ethereumAddressOf,
  pollUntil,
  signPersonalMessage,
  startLocalAnvil,
  testSecretKey,
  type LocalAnvil,
} from "@compliance-graph/test-kit";
import { apiQuery, credentialOf, signedIn as signIn, slow } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";
import { launchBrowser } from "../portal/support/browser.js";

const ether = "DTIX9J9K872S";
const [payer, deposit, deployer] = anvilAccounts;
const walletOwnerKey = testSecretKey("console contract wallet owner");

/** `amount` wei in ether, written out by hand (18 decimals, no trailing zeros), independent of the code under test. */
const inEther = (amount: bigint) => {
  const digits = amount.toString().padStart(19, "0");
  const fraction = digits.slice(-18).replace(/0+$/, "");
  return fraction === "" ? digits.slice(0, -18) : `${digits.slice(0, -18)}.${fraction}`;
};

/**
 * What the proof detail shows of the evidence the API now keeps, in a real browser against the
 * whole stack with a real EVM node (anvil) behind aopd's chain connection: the Satoshi chain
 * check's finding with explorer links, a smart-contract wallet's (ERC-1271) signature, and a
 * VERIFIED proof's signed receipt, copied and saved as a file, checked with jose against the key
 * set the gateway publishes, and hidden from an officer without proofs:export.
 */
describe("the proof detail's evidence and receipt in the officer console", { timeout: 240_000 }, () => {
  let anvil: LocalAnvil;
  let stack: ConsoleStack;
  let browser: Browser;
  let wallet: string;

  beforeAll(async () => {
    anvil = await startLocalAnvil();
    wallet = await anvil.deploy(deployer!, erc1271WalletBytecode(ethereumAddressOf(walletOwnerKey)));
    const { chain } = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "2", AOPD_CHAIN_RECHECK_SECONDS: "0" });
    // Chain passes are run by the test (interval 0), so each check happens when the test says.
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_evidence"), chain: { ...chain, intervalSeconds: 0 } });
    browser = await launchBrowser();
  }, 180_000);
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await anvil?.close();
  });

  const graphql = <T>(query: string, variables?: Record<string, unknown>) => apiQuery<T>(stack, query, variables);
  const signedIn = (path: string, username = "demo-officer", options: BrowserContextOptions = {}): Promise<Page> =>
    signIn(browser, stack, path, username, options);
  const statusOf = async (id: string) =>
    (
      await graphql<{ aopd: { proof: { status: string } } }>(
        `
          query ($id: ID!) {
            aopd {
              proof(id: $id) {
                status
              }
            }
          }
        `,
        { id },
      )
    ).aopd.proof.status;

  /** A Satoshi proof paid on anvil and verified by the chain check: its id, amount, transaction and block. */
  const verifiedSatoshiProof = async () => {
    const { aopd } = await graphql<{ aopd: { requestSatoshiProof: { id: string; amount: string } } }>(
      `
        mutation ($input: AopdRequestSatoshiProofInput!) {
          aopd {
            requestSatoshiProof(input: $input) {
              id
              amount
            }
          }
        }
      `,
      { input: { customerId: `CUST-EVIDENCE-${Date.now()}`, asset: ether, senderAddress: payer, depositAddress: deposit } },
    );
    const { id } = aopd.requestSatoshiProof;
    const amount = BigInt(aopd.requestSatoshiProof.amount);
    const txId = await anvil.send({ from: payer!, to: deposit, value: amount });
    await graphql(
      `
        mutation ($id: ID!, $txId: String!) {
          aopd {
            finalizeSatoshiProof(id: $id, txId: $txId) {
              id
            }
          }
        }
      `,
      { id, txId },
    );
    const receipt = await anvil.rpc<{ blockNumber: string; blockHash: string }>("eth_getTransactionReceipt", [txId]);
    await anvil.mine(2);
    await pollUntil(
      "the chain check to verify the Satoshi proof",
      async () => {
        await stack.aopd.chainWatcher.pass();
        return statusOf(id);
      },
      (status) => status === "VERIFIED",
      { timeoutMs: 60_000 },
    );
    return { id, amount, txId, blockHeight: Number(BigInt(receipt.blockNumber)), blockHash: receipt.blockHash };
  };

  it("shows what the chain check found: block and hash, the amount received in whole and lowest units, the senders linked to the explorer", async () => {
    const proof = await verifiedSatoshiProof();
    const page = await signedIn(`/console/proofs/${proof.id}`);
    const evidence = page.getByRole("region", { name: "Evidence" });
    await evidence.waitFor(slow);
    const value = (term: string) => evidence.locator(`dt:text-is("${term}") + dd`);
    await value("Block hash").getByText(proof.blockHash, { exact: true }).waitFor(slow);
    expect(await value("Block").textContent()).toBe(new Intl.NumberFormat("en").format(proof.blockHeight));
    expect(await value("Confirmations").textContent()).toMatch(/^\d+$/);
    expect(await value("Amount received").textContent()).toBe(`${inEther(proof.amount)} ETH (${proof.amount} in the lowest unit)`);
    const senders = value("Paid by").getByRole("link");
    expect(await senders.count()).toBe(1);
    expect((await senders.textContent())?.toLowerCase()).toBe(payer);
    expect((await senders.getAttribute("href"))?.toLowerCase()).toBe(`https://etherscan.io/address/${payer}`);
    expect(await evidence.getByRole("link", { name: proof.txId }).getAttribute("href")).toBe(`https://etherscan.io/tx/${proof.txId}`);
  });

  it("offers a VERIFIED proof's receipt to copy and to save as a file; the receipt verifies with the gateway's published keys", async () => {
    const proof = await verifiedSatoshiProof();
    const page = await signedIn(`/console/proofs/${proof.id}`, "demo-officer", { permissions: ["clipboard-read", "clipboard-write"] });
    const section = page.getByRole("region", { name: "Receipt" });
    await section.getByRole("button", { name: "Issue a receipt" }).click(slow);
    const field = section.getByLabel("Receipt (JWS)");
    await field.waitFor(slow);
    const jws = await field.inputValue();

    // What the page shows verifies against the key set anyone can fetch, and states this proof.
    const keys = (await (await fetch(`${stack.baseUrl}/.well-known/aopd-receipt-keys.json`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(jws, createLocalJWKSet(keys), { algorithms: ["ES256"] });
    expect(payload.sub).toBe(proof.id);
    expect(payload.proof).toMatchObject({ address: expect.stringMatching(new RegExp(`^${payer}$`, "i")), asset: { code: ether } });
    expect(await section.locator('dt:text-is("Signed with key") + dd').textContent()).toBe(decodeProtectedHeader(jws).kid);

    await section.getByRole("button", { name: "Copy the receipt" }).click();
    await section.getByText("Copied.").waitFor(slow);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(jws);

    const [download] = await Promise.all([page.waitForEvent("download", slow), section.getByRole("button", { name: "Save the receipt as a file" }).click()]);
    expect(download.suggestedFilename()).toBe(`aopd-receipt-${proof.id}.jwt`);
    expect(await readFile((await download.path())!, "utf8")).toBe(jws);
  });

  it("hides the receipt from an officer without proofs:export, whom the API refuses it too", async () => {
    const proof = await verifiedSatoshiProof();
    const page = await signedIn(`/console/proofs/${proof.id}`, "demo-auditor");
    await page.getByRole("region", { name: "Evidence" }).locator('dt:text-is("Block hash")').waitFor(slow);
    expect(await page.getByRole("region", { name: "Receipt" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Issue a receipt" }).count()).toBe(0);
    const refused = await stack.query(`query($id: ID!) { aopd { proofReceipt(id: $id) { jws } } }`, await stack.userToken("demo-auditor", "demo-password"), {
      id: proof.id,
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("names ERC-1271 and the block at which the wallet contract accepted a smart-contract wallet's signature, in English and German", async () => {
    const { aopd } = await graphql<{ aopd: { requestAoppProof: { proof: { id: string; message: string }; portalUrl: string } } }>(
      `
        mutation ($input: AopdRequestAoppProofInput!) {
          aopd {
            requestAoppProof(input: $input) {
              proof {
                id
                message
              }
              portalUrl
            }
          }
        }
      `,
      { input: { customerId: `CUST-ERC1271-${Date.now()}`, asset: ether, expectedAddress: wallet } },
    );
    const { portalUrl } = aopd.requestAoppProof;
    const { id, message } = aopd.requestAoppProof.proof;
    const signature = `0x${Buffer.from(signPersonalMessage(walletOwnerKey, message)).toString("hex")}`;
    const submitted = await fetch(`${stack.baseUrl}/portal/api/proof/${credentialOf(portalUrl)}/signature`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signature }),
    });
    expect(submitted.status).toBe(200);
    const { contractCheckBlockHeight } = (
      await graphql<{ aopd: { proof: { contractCheckBlockHeight: number } } }>(
        `
          query ($id: ID!) {
            aopd {
              proof(id: $id) {
                ... on AopdSignatureProof {
                  contractCheckBlockHeight
                }
              }
            }
          }
        `,
        { id },
      )
    ).aopd.proof;
    expect(contractCheckBlockHeight).toBeGreaterThan(0);

    const page = await signedIn(`/console/proofs/${id}`);
    const evidence = page.getByRole("region", { name: "Evidence" });
    await evidence.locator('dt:text-is("Verified with") + dd').getByText("ERC-1271 (smart-contract wallet: its contract accepted the signature)").waitFor(slow);
    expect(await evidence.locator('dt:text-is("Accepted by the wallet contract at block") + dd').textContent()).toBe(
      new Intl.NumberFormat("en").format(contractCheckBlockHeight),
    );
    // A verified signature proof has its receipt too.
    await page.getByRole("region", { name: "Receipt" }).getByRole("button", { name: "Issue a receipt" }).waitFor(slow);

    const german = await signedIn(`/console/proofs/${id}`, "demo-officer", { locale: "de-DE" });
    const beweis = german.getByRole("region", { name: "Beleg" });
    await beweis.locator('dt:text-is("Vom Wallet-Vertrag anerkannt bei Block") + dd').waitFor(slow);
    await beweis.getByText("ERC-1271 (Smart-Contract-Wallet: ihr Vertrag hat die Signatur anerkannt)").waitFor(slow);
    await german.getByRole("button", { name: "Quittung ausstellen" }).waitFor(slow);
  });
});
