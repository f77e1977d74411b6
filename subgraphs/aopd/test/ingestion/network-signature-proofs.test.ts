import { bytesToHex } from "@noble/hashes/utils.js";
import { base58, base64 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ethereumAddressOf,
  signPersonalMessage,
  signSolanaMessage,
  signTronMessage,
  solanaAddressOf,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";
import { portalApi, postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

/**
 * Signature proofs on the networks AOPP does not cover, end to end: requestAoppProof over
 * GraphQL, the portal's public view, and the signature posted to the portal API, as a customer
 * pasting a wallet's signature does.
 */
const sol = "DTI20J63Z4N3";
const usdcOnSolana = "DTI5R3XFPZSM";
const trx = "DTI993D8X1FB";
const usdtOnTron = "DTIC9N6ZVN7S";
const pancakeOnBsc = "DTI79F06FB14";
const lightning = "DTIK1NS41N51";

const solanaKey = testSecretKey("e2e solana");
const solanaAddress = solanaAddressOf(solanaKey);
const tronKey = testSecretKey("e2e tron");
const tronAddress = tronAddressOf(tronKey);
const evmKey = testSecretKey("e2e bsc");
const evmAddress = ethereumAddressOf(evmKey);
type Refusal = { error: string; reason: string };

describe.each(databaseDrivers)("signature proofs on Solana, TRON and EVM tokens on %s", (driver) => {
  let aopd: TestAopd;
  const request = async (input: Record<string, unknown>) =>
    (
      await aopd.query(`mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { aoppUri portalUrl proof { id } } } }`, {
        input: { customerId: "CUST-N", ...input },
      })
    ).body;
  const statusOf = async (id: string) => {
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { status address asset } } }`, { id });
    return (body.data!.aopd as { proof: { status: string; address: string; asset: string } }).proof;
  };

  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("proves a Solana address with a base58 signMessage signature pasted on the portal; the request's link is the portal, not aopp:", async () => {
    const { token, proof, aoppUri, portalUrl } = await requestSignatureProof(aopd, { asset: sol, expectedAddress: solanaAddress });
    expect(aoppUri).toBe(portalUrl);
    const view = await portalApi<{ address: string; signature: { aoppUri: string | null }; asset: { addressFamily: string } }>(aopd, token);
    expect(view.body).toMatchObject({ address: solanaAddress, signature: { aoppUri: null }, asset: { addressFamily: "solana" } });
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${token}/signature`, {
      signature: base58.encode(signSolanaMessage(solanaKey, proof.message)),
    });
    expect([answer.status, answer.body.proof?.status]).toEqual([200, "VERIFIED"]);
    expect(await statusOf(proof.id)).toEqual({ status: "VERIFIED", address: solanaAddress, asset: sol });
  });

  it("proves an SPL token with a base64 signature, the address named by the customer", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { asset: usdcOnSolana });
    const answer = await postJson(aopd, `${token}/signature`, {
      address: solanaAddress,
      signature: base64.encode(signSolanaMessage(solanaKey, proof.message)),
    });
    expect(answer.status).toBe(200);
    expect(await statusOf(proof.id)).toEqual({ status: "VERIFIED", address: solanaAddress, asset: usdcOnSolana });
  });

  it("proves TRON and a TRC-20 token with a TIP-191 signMessageV2 signature", async () => {
    for (const asset of [trx, usdtOnTron]) {
      const { token, proof, aoppUri } = await requestSignatureProof(aopd, { asset, expectedAddress: tronAddress });
      expect(aoppUri.startsWith("aopp:")).toBe(false);
      const answer = await postJson(aopd, `${token}/signature`, { signature: `0x${bytesToHex(signTronMessage(tronKey, proof.message))}` });
      expect(answer.status, asset).toBe(200);
      expect(await statusOf(proof.id)).toEqual({ status: "VERIFIED", address: tronAddress, asset });
    }
  });

  it("proves a BEP-20 token with EIP-191 at its chain's address, through an aopp: link", async () => {
    const { token, proof, aoppUri } = await requestSignatureProof(aopd, { asset: pancakeOnBsc, expectedAddress: evmAddress });
    expect(new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("asset")).toBe("eth");
    const answer = await postJson(aopd, `${token}/signature`, { signature: `0x${bytesToHex(signPersonalMessage(evmKey, proof.message))}` });
    expect(answer.status).toBe(200);
    expect((await statusOf(proof.id)).status).toBe("VERIFIED");
  });

  it("refuses a signature in the wrong encoding or by the wrong scheme with 400, naming what is accepted", async () => {
    const solana = await requestSignatureProof(aopd, { asset: sol, expectedAddress: solanaAddress });
    const hexSignature = await postJson<Refusal>(aopd, `${solana.token}/signature`, {
      signature: bytesToHex(signSolanaMessage(solanaKey, solana.proof.message)),
    });
    expect([hexSignature.status, hexSignature.body]).toEqual([
      400,
      { error: "malformed_signature", reason: "A Solana signature is 64 bytes, written as base58 or base64." },
    ]);
    const tron = await requestSignatureProof(aopd, { asset: usdtOnTron, expectedAddress: tronAddress });
    const base58Signature = await postJson<Refusal>(aopd, `${tron.token}/signature`, {
      signature: base58.encode(signTronMessage(tronKey, tron.proof.message)),
    });
    expect([base58Signature.status, base58Signature.body]).toEqual([
      400,
      { error: "malformed_signature", reason: "A TRON signature is 65 bytes, written as 0x-prefixed hexadecimal or base64." },
    ]);
    // The same key's Ethereum signature is not a TRON signature.
    const ethereumSigned = await postJson<Refusal>(aopd, `${tron.token}/signature`, {
      signature: bytesToHex(signPersonalMessage(tronKey, tron.proof.message)),
    });
    expect([ethereumSigned.status, ethereumSigned.body.error]).toEqual([400, "signature_mismatch"]);
    // A proof without an address: the customer names one of another network.
    const open = await requestSignatureProof(aopd, { asset: usdcOnSolana });
    const wrongNetwork = await postJson<Refusal>(aopd, `${open.token}/signature`, {
      address: tronAddress,
      signature: base58.encode(signSolanaMessage(solanaKey, open.proof.message)),
    });
    expect([wrongNetwork.status, wrongNetwork.body.error, wrongNetwork.body.reason]).toEqual([
      400,
      "invalid_address",
      expect.stringMatching(/Solana address is the base58 of a 32-byte public key/),
    ]);
    for (const { proof } of [solana, tron, open]) expect((await statusOf(proof.id)).status).toBe("PENDING");
  });

  it("refuses requests for an address of another network, a token with its chain's wrong address format, and Lightning, with BAD_USER_INPUT", async () => {
    const before = (await aopd.query(`{ aopd { proofsCount } }`)).body;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { asset: usdtOnTron, expectedAddress: evmAddress },
        "input.expectedAddress",
        /^input\.expectedAddress: is not an address of USD Tether \(TRC-20 on tron\): A TRON address is base58check starting with T/,
      ],
      [
        { asset: pancakeOnBsc, expectedAddress: tronAddress },
        "input.expectedAddress",
        /^input\.expectedAddress: is not an address of PancakeSwap Token \(BEP-20 on binance-smart-chain\): An Ethereum address is 0x/,
      ],
      [
        { asset: usdcOnSolana, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" },
        "input.expectedAddress",
        /USDC \(SPL-Token on solana\): A Solana address is the base58/,
      ],
      [
        { asset: sol, expectedAddress: solanaAddress, format: "P2WPKH" },
        "input.format",
        /P2WPKH cannot be requested for Solana; allowed: null \(the standard format\)/,
      ],
      [
        { asset: lightning },
        "input.asset",
        /Bitcoin on the Lightning Network cannot be proven by signature: a Lightning node's signmessage proves control of the node's identity key, not of an address/,
      ],
      [{ asset: "DTINVVJ0PSWD" }, "input.asset", /Lightning Network cannot be proven by signature/],
    ];
    for (const [input, field, message] of cases) {
      const body = await request(input);
      expect(body.errors?.[0]?.extensions, JSON.stringify(input)).toMatchObject({ code: "BAD_USER_INPUT", field });
      expect(body.errors?.[0]?.message, JSON.stringify(input)).toMatch(message);
    }
    expect((await aopd.query(`{ aopd { proofsCount } }`)).body).toEqual(before);
  });

  it("lists every asset in configuration with network, standard, contract and decimals, and filters proofs on a token's code", async () => {
    const { body } = await aopd.query(`{ aopd { configuration {
      supportedAssets { asset name registryName network standard contract decimals addressFamily }
      satoshiBaseAmounts { asset amount } } } }`);
    const configuration = (
      body.data!.aopd as { configuration: { supportedAssets: Record<string, unknown>[]; satoshiBaseAmounts: { asset: string; amount: string }[] } }
    ).configuration;
    expect(configuration.supportedAssets.length).toBeGreaterThan(200);
    expect(configuration.supportedAssets.find((asset) => asset.asset === usdtOnTron)).toEqual({
      asset: usdtOnTron,
      name: "USD Tether",
      registryName: null,
      network: "tron",
      standard: "TRC-20",
      contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      decimals: 6,
      addressFamily: "tron",
    });
    expect(configuration.supportedAssets.find((asset) => asset.asset === "DTIHWN9T781J")).toMatchObject({
      name: "Binance Smart Chain",
      registryName: "Bitmon",
      standard: null,
      contract: null,
    });
    // 0.0001 of a unit, in the asset's own lowest unit; none where the decimals are unknown.
    const amounts = Object.fromEntries(configuration.satoshiBaseAmounts.map(({ asset, amount }) => [asset, amount]));
    expect(amounts).toMatchObject({ DTI4H95J0R2X: "10000", DTIX9J9K872S: "100000000000000", [sol]: "100000", [trx]: "100", [usdtOnTron]: "100" });
    expect(amounts[pancakeOnBsc]).toBe("100000000000000");
    expect(amounts.DTI17002NH5Z).toBeUndefined();
    expect(amounts[lightning]).toBeUndefined();

    const { body: filtered } = await aopd.query(`{ aopd { proofs(filter: { is: { any: { asset: { eq: "${usdtOnTron}" } } } }) { asset } } }`);
    const proofs = (filtered.data!.aopd as { proofs: { asset: string }[] }).proofs;
    expect(proofs.length).toBeGreaterThan(0);
    expect(new Set(proofs.map((proof) => proof.asset))).toEqual(new Set([usdtOnTron]));
  });
});
