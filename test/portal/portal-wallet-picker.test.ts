import { bytesToHex } from "@noble/hashes/utils.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anvilAccounts,
  createTestDatabase,
  erc1271WalletBytecode,
  ethereumAddressOf,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signPersonalMessage,
  signSolanaMessage,
  signTronMessage,
  solanaAddressOf,
  startLocalAnvil,
  testSecretKey,
  tronAddressOf,
  type LocalAnvil,
} from "@compliance-graph/test-kit";
import { aopdConfigFromEnv } from "../../subgraphs/aopd/src/aopd-config-from-env.js";
import { startStack, type Stack } from "../support/start-stack.js";
import { launchBrowser, openPage } from "./support/browser.js";
import { headingShown, portalProofs, type RequestedProof } from "./support/portal-proofs.js";

const icon = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="#f6851b"/></svg>').toString("base64")}`;
type TestWindow = Window & Record<string, unknown>;

/**
 * The wallet picker in a real browser against the whole stack. Each wallet is a script injected
 * into the page before it loads, speaking the interface real wallets speak (EIP-6963 and EIP-1193,
 * the Wallet Standard, TronLink's tronWeb, sats-connect's request), and backed by a real key the
 * test holds (the page calls back into the test to sign). The server checks every signature as it
 * checks a pasted one; the outcome is read through /graphql.
 */
describe("the portal's wallet picker", () => {
  let stack: Stack;
  let anvil: LocalAnvil;
  let browser: Browser;
  let apiToken: string;
  let portalBase: string;
  let proofs: ReturnType<typeof portalProofs>;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("portalwallets");
    // A real EVM node as the Ethereum chain connection, for smart-contract wallets (ERC-1271).
    anvil = await startLocalAnvil();
    const { chain } = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_CHECK_INTERVAL_SECONDS: "0" });
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 0, config: { chain } } });
    portalBase = new URL(stack.subgraphUrls.aopd).origin;
    apiToken = await stack.fetchToken();
    proofs = portalProofs(stack, () => apiToken);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await anvil?.close();
  });

  const pageOf = (requested: RequestedProof) => `${portalBase}/portal/${requested.token}`;

  /** The names the picker offers, in order. */
  const offered = async (page: Page) =>
    (
      await page
        .getByRole("list")
        .filter({ has: page.getByRole("button", { name: /^Sign with / }) })
        .getByRole("button")
        .allTextContents()
    ).map((text) => text.trim());

  it("offers every EIP-6963 wallet by its announced name, and the chosen one signs to VERIFIED", async () => {
    const ownerKey = testSecretKey("picker ether owner");
    const otherKey = testSecretKey("picker ether other");
    const owner = ethereumAddressOf(ownerKey);
    const requested = await proofs.requestSignatureProof({ asset: "DTIX9J9K872S", expectedAddress: owner });
    const signedBy: string[] = [];
    const scripts: string[] = [];
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.exposeFunction("testEthereumSign", (wallet: string, hexMessage: string) => {
        signedBy.push(wallet);
        const message = Buffer.from(hexMessage.slice(2), "hex").toString("utf8");
        return `0x${bytesToHex(signPersonalMessage(wallet === "one" ? otherKey : ownerKey, message))}`;
      });
      await page.addInitScript(
        ({ wallets, icon }) => {
          const page = window as unknown as TestWindow;
          const sign = page.testEthereumSign as (wallet: string, hex: string) => Promise<string>;
          const announce = () => {
            for (const wallet of wallets) {
              const provider = {
                request: async ({ method, params }: { method: string; params?: string[] }) => {
                  if (method === "eth_requestAccounts") return [wallet.address];
                  if (method === "personal_sign") return sign(wallet.id, params![0]!);
                  throw new Error(`unsupported method ${method}`);
                },
              };
              const info = Object.freeze({
                uuid: `00000000-0000-4000-8000-00000000000${wallet.id === "one" ? 1 : 2}`,
                name: wallet.name,
                icon,
                rdns: `example.${wallet.id}`,
              });
              window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
            }
          };
          window.addEventListener("eip6963:requestProvider", announce);
          announce();
        },
        {
          wallets: [
            { id: "one", name: "Test Wallet One", address: ethereumAddressOf(otherKey) },
            { id: "two", name: "Test Wallet Two", address: owner },
          ],
          icon,
        },
      );
    });
    await page.getByRole("heading", { name: "Sign with a wallet in this browser" }).waitFor();
    expect(await offered(page)).toEqual(["Sign with Test Wallet One", "Sign with Test Wallet Two"]);
    expect(await page.getByRole("button", { name: "Sign with Test Wallet One" }).locator("img").getAttribute("src")).toBe(icon);
    // The wallet's code is not part of the first page: it is loaded when the customer picks a wallet.
    expect(scripts.filter((path) => path.includes("sign-with-"))).toEqual([]);
    await page.getByRole("button", { name: "Sign with Test Wallet Two" }).click();
    await headingShown(page, "Your proof is verified");
    expect(scripts.filter((path) => path.includes("sign-with-")).map((path) => path.replace(/-[\w-]{8}\.js$/, ".js"))).toEqual([
      "/portal/assets/sign-with-ethereum-wallet.js",
    ]);
    expect(signedBy).toEqual(["two"]);
    expect(await proofs.statusOf(requested.id)).toBe("VERIFIED");
  });

  it("refuses, as a reason on the page, the signature of a wallet holding another account", async () => {
    const owner = ethereumAddressOf(testSecretKey("picker ether owner 2"));
    const otherKey = testSecretKey("picker ether stranger");
    const requested = await proofs.requestSignatureProof({ asset: "DTIX9J9K872S", expectedAddress: owner });
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      await page.exposeFunction(
        "testEthereumSign",
        (hexMessage: string) => `0x${bytesToHex(signPersonalMessage(otherKey, Buffer.from(hexMessage.slice(2), "hex").toString("utf8")))}`,
      );
      await page.addInitScript(
        ({ address, icon }) => {
          const sign = (window as unknown as TestWindow).testEthereumSign as (hex: string) => Promise<string>;
          const provider = {
            request: async ({ method, params }: { method: string; params?: string[] }) => (method === "eth_requestAccounts" ? [address] : sign(params![0]!)),
          };
          const announce = () =>
            window.dispatchEvent(
              new CustomEvent("eip6963:announceProvider", {
                detail: { info: { uuid: "00000000-0000-4000-8000-000000000009", name: "Stranger Wallet", icon, rdns: "example.stranger" }, provider },
              }),
            );
          window.addEventListener("eip6963:requestProvider", announce);
        },
        { address: ethereumAddressOf(otherKey), icon },
      );
    });
    await page.getByRole("button", { name: "Sign with Stranger Wallet" }).click();
    await page.getByRole("alert").filter({ hasText: "The address differs from the address asked for" }).waitFor();
    expect(await proofs.statusOf(requested.id)).toBe("PENDING");
  });

  it("verifies a smart-contract wallet (ERC-1271) whose owner key signs in the browser wallet, and refuses another key", async () => {
    const ownerKey = testSecretKey("picker contract owner");
    const contract = await anvil.deploy(anvilAccounts[0], erc1271WalletBytecode(ethereumAddressOf(ownerKey)));
    const withKey = async (signer: Uint8Array) => {
      const requested = await proofs.requestSignatureProof({ asset: "DTIX9J9K872S", expectedAddress: contract });
      const page = await openPage(browser, pageOf(requested), {}, async (page) => {
        await page.exposeFunction(
          "testEthereumSign",
          (hexMessage: string) => `0x${bytesToHex(signPersonalMessage(signer, Buffer.from(hexMessage.slice(2), "hex").toString("utf8")))}`,
        );
        // The wallet app of a contract account: its account is the contract, its signature the owner key's.
        await page.addInitScript(
          ({ address, icon }) => {
            const sign = (window as unknown as TestWindow).testEthereumSign as (hex: string) => Promise<string>;
            const provider = {
              request: async ({ method, params }: { method: string; params?: string[] }) => (method === "eth_requestAccounts" ? [address] : sign(params![0]!)),
            };
            const announce = () =>
              window.dispatchEvent(
                new CustomEvent("eip6963:announceProvider", {
                  detail: { info: { uuid: "00000000-0000-4000-8000-000000001271", name: "Test Safe", icon, rdns: "example.safe" }, provider },
                }),
              );
            window.addEventListener("eip6963:requestProvider", announce);
          },
          { address: contract, icon },
        );
      });
      await page.getByRole("button", { name: "Sign with Test Safe" }).click();
      return { page, requested };
    };
    const owner = await withKey(ownerKey);
    await headingShown(owner.page, "Your proof is verified");
    expect(await proofs.statusOf(owner.requested.id)).toBe("VERIFIED");
    const stranger = await withKey(testSecretKey("picker contract stranger"));
    await stranger.page.getByRole("alert").filter({ hasText: "The signature does not verify" }).waitFor();
    expect(await proofs.statusOf(stranger.requested.id)).toBe("PENDING");
  });

  it("signs with a Solana wallet of the Wallet Standard (solana:signMessage)", async () => {
    const key = testSecretKey("picker solana");
    const address = solanaAddressOf(key);
    const requested = await proofs.requestSignatureProof({ asset: "DTI5R3XFPZSM", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      await page.exposeFunction("testSolanaSign", (bytes: number[]) => [...signSolanaMessage(key, Buffer.from(bytes).toString("utf8"))]);
      await page.addInitScript(
        ({ address, icon }) => {
          const sign = (window as unknown as TestWindow).testSolanaSign as (bytes: number[]) => Promise<number[]>;
          const account = { address, publicKey: new Uint8Array(32), chains: ["solana:mainnet"], features: ["solana:signMessage"] };
          const wallet = {
            version: "1.0.0",
            name: "Test Solana Wallet",
            icon,
            chains: ["solana:mainnet"],
            accounts: [account],
            features: {
              "standard:connect": { version: "1.0.0", connect: async () => ({ accounts: [account] }) },
              "solana:signMessage": {
                version: "1.0.0",
                signMessage: async (...inputs: { account: { address: string }; message: Uint8Array }[]) =>
                  Promise.all(inputs.map(async (input) => ({ signedMessage: input.message, signature: new Uint8Array(await sign([...input.message])) }))),
              },
            },
          };
          // The Wallet Standard's handshake, from the wallet's side: register now if the app listens, and when it says it is ready.
          const callback = ({ register }: { register: (wallet: unknown) => void }) => register(wallet);
          window.addEventListener("wallet-standard:app-ready", (event) => callback((event as CustomEvent<{ register: (wallet: unknown) => void }>).detail));
          window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: callback }));
        },
        { address, icon },
      );
    });
    await page.getByRole("button", { name: "Sign with Test Solana Wallet" }).click();
    await headingShown(page, "Your proof is verified");
    expect(await proofs.statusOf(requested.id)).toBe("VERIFIED");
  });

  it("signs with TronLink's tronWeb (signMessageV2)", async () => {
    const key = testSecretKey("picker tron");
    const address = tronAddressOf(key);
    const requested = await proofs.requestSignatureProof({ asset: "DTIC9N6ZVN7S", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      await page.exposeFunction("testTronSign", (message: string) => `0x${bytesToHex(signTronMessage(key, message))}`);
      await page.addInitScript((address: string) => {
        const page = window as unknown as TestWindow;
        const sign = page.testTronSign as (message: string) => Promise<string>;
        page.tronLink = { ready: true, request: async ({ method }: { method: string }) => (method === "tron_requestAccounts" ? { code: 200 } : undefined) };
        page.tronWeb = { ready: true, defaultAddress: { base58: address }, trx: { signMessageV2: (message: string) => sign(message) } };
      }, address);
    });
    await page.getByRole("button", { name: "Sign with TronLink" }).click();
    await headingShown(page, "Your proof is verified");
    expect(await proofs.statusOf(requested.id)).toBe("VERIFIED");
  });

  it("signs with a Bitcoin wallet through sats-connect's request interface (BIP-322 for a native segwit address)", async () => {
    const key = testSecretKey("picker bitcoin");
    const address = p2wpkhAddress(publicKeyOf(key));
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const calls: { method: string; protocol?: string }[] = [];
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      await page.exposeFunction("testBitcoinSign", (method: string, params: { address?: string; message?: string; protocol?: string }) => {
        calls.push({ method, protocol: params.protocol });
        if (method === "getAddresses") return { jsonrpc: "2.0", id: "1", result: { addresses: [{ address, purpose: "payment", addressType: "p2wpkh" }] } };
        if (method === "signMessage" && params.address === address)
          return { jsonrpc: "2.0", id: "2", result: { signature: signBip322PublicKeyHash(key, address, params.message!), address, protocol: params.protocol } };
        return { jsonrpc: "2.0", id: "3", error: { code: -32601, message: `unsupported ${method}` } };
      });
      await page.addInitScript((icon: string) => {
        const page = window as unknown as TestWindow;
        const sign = page.testBitcoinSign as (method: string, params: unknown) => Promise<unknown>;
        page.TestBitcoinProviders = { BitcoinProvider: { request: (method: string, params: unknown) => sign(method, params) } };
        page.btc_providers = [{ id: "TestBitcoinProviders.BitcoinProvider", name: "Test Bitcoin Wallet", icon }];
      }, icon);
    });
    await page.getByRole("button", { name: "Sign with Test Bitcoin Wallet" }).click();
    await headingShown(page, "Your proof is verified");
    expect(calls).toEqual([
      { method: "getAddresses", protocol: undefined },
      { method: "signMessage", protocol: "BIP322" },
    ]);
    expect(await proofs.statusOf(requested.id)).toBe("VERIFIED");
  });

  it("offers only the wallets of the proof's chain, and the pasted path always", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: p2wpkhAddress(publicKeyOf(testSecretKey("picker chain"))) });
    const page = await openPage(browser, pageOf(requested), {}, async (page) => {
      await page.addInitScript(() => {
        const page = window as unknown as TestWindow;
        page.tronWeb = { defaultAddress: { base58: "T" }, trx: { signMessageV2: async () => "0x" } };
        page.ethereum = { request: async () => [] };
      });
    });
    await page.getByRole("heading", { name: "Other wallets" }).waitFor();
    expect(await page.getByRole("button", { name: /^Sign with / }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Sign with a wallet in this browser" }).count()).toBe(0);
  });
});
