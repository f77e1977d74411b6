import { bytesToHex } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anvilAccounts,
  erc1271WalletBytecode,
  ethereumAddressOf,
  signPersonalMessage,
  startLocalAnvil,
  testSecretKey,
  type LocalAnvil,
} from "@compliance-graph/test-kit";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { etherAsset, postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const ownerKey = testSecretKey("contract wallet owner");
const strangerKey = testSecretKey("contract wallet stranger");
const personalSign = (key: Uint8Array, message: string) => `0x${bytesToHex(signPersonalMessage(key, message))}`;
type Refusal = { error: string; reason: string };

/**
 * ERC-1271 on a real EVM node (anvil): a minimal wallet contract, deployed in the test, accepts
 * signatures of its owner key. Its address has no key, so `ecrecover` never yields it; aopd asks
 * the contract through the chain connection of the asset's network and records the block.
 */
describe.each(databaseDrivers)("smart-contract wallet signatures (ERC-1271) on %s", (driver) => {
  let anvil: LocalAnvil;
  let aopd: TestAopd;
  let wallet: string;

  beforeAll(async () => {
    anvil = await startLocalAnvil();
    wallet = await anvil.deploy(anvilAccounts[0], erc1271WalletBytecode(ethereumAddressOf(ownerKey)));
    const { chain } = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_CHECK_INTERVAL_SECONDS: "0" });
    aopd = await startTestAopd(driver, { config: { chain, rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([aopd?.close(), anvil?.close()]);
  });

  const rowOf = (id: string) =>
    aopd.services.db
      .selectFrom("aopd_proof")
      .select(["status", "signature_scheme", "contract_check_block_height", "block_height", "address"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  /** What an officer sees through GraphQL. */
  const proofOf = async (id: string) => {
    const { body } = await aopd.query(
      `query($id: ID!) { aopd { proof(id: $id) { status ... on AopdSignatureProof { signatureScheme contractCheckBlockHeight } } } }`,
      { id },
    );
    expect(body.errors).toBeUndefined();
    return (body.data!.aopd as { proof: { status: string; signatureScheme: string | null; contractCheckBlockHeight: number | null } }).proof;
  };

  it("verifies the owner's signature through the portal, recording the contract's check and its block, which officers read through GraphQL", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: wallet });
    const before = Number(BigInt(await anvil.rpc<string>("eth_blockNumber")));
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${requested.token}/signature`, {
      signature: personalSign(ownerKey, requested.proof.message),
    });
    const after = Number(BigInt(await anvil.rpc<string>("eth_blockNumber")));
    expect([answer.status, answer.body.proof.status]).toEqual([200, "VERIFIED"]);
    const row = await rowOf(requested.proof.id);
    expect(row).toMatchObject({ status: "VERIFIED", signature_scheme: "erc1271", block_height: null });
    const checkedAt = Number(row.contract_check_block_height);
    expect(checkedAt).toBeGreaterThanOrEqual(before);
    expect(checkedAt).toBeLessThanOrEqual(after);
    expect(await proofOf(requested.proof.id)).toEqual({ status: "VERIFIED", signatureScheme: "ERC1271", contractCheckBlockHeight: checkedAt });
  });

  it("shows a key's signature as EIP191 with no contract check block", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: ethereumAddressOf(ownerKey) });
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${requested.token}/signature`, {
      signature: personalSign(ownerKey, requested.proof.message),
    });
    expect(answer.status).toBe(200);
    expect(await proofOf(requested.proof.id)).toEqual({ status: "VERIFIED", signatureScheme: "EIP191", contractCheckBlockHeight: null });
  });

  it("verifies the owner's signature through the AOPP callback", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: wallet });
    const answer = await fetch(new URL(`/aopp/callback/${requested.token}`, aopd.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 0, address: wallet, signature: personalSign(ownerKey, requested.proof.message) }),
    });
    expect(answer.status).toBe(204);
    expect(await proofOf(requested.proof.id)).toMatchObject({ status: "VERIFIED", signatureScheme: "ERC1271", contractCheckBlockHeight: expect.any(Number) });
  });

  it("refuses another key's signature, saying the contract did not accept it, and changes nothing", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: wallet });
    const answer = await postJson<Refusal>(aopd, `${requested.token}/signature`, { signature: personalSign(strangerKey, requested.proof.message) });
    expect([answer.status, answer.body.error]).toEqual([400, "signature_mismatch"]);
    expect(answer.body.reason).toMatch(
      /Nor does the contract at this address accept it as a smart-contract wallet \(ERC-1271 isValidSignature at block \d+\)\.$/,
    );
    expect(await rowOf(requested.proof.id)).toMatchObject({ status: "PENDING", signature_scheme: null, contract_check_block_height: null });
    expect(await proofOf(requested.proof.id)).toEqual({ status: "PENDING", signatureScheme: null, contractCheckBlockHeight: null });
  });

  it("keeps ecrecover's own refusal code for a signature it cannot read, adding that the contract did not accept it either", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: wallet });
    const answer = await postJson<Refusal>(aopd, `${requested.token}/signature`, { signature: `0x${"ab".repeat(10)}` });
    expect([answer.status, answer.body.error]).toEqual([400, "malformed_signature"]);
    expect(answer.body.reason).toMatch(/Nor does the contract at this address accept it/);
  });

  it("refuses a signature for an address with no contract, which no contract can accept", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: anvilAccounts[2] });
    const answer = await postJson<Refusal>(aopd, `${requested.token}/signature`, { signature: personalSign(ownerKey, requested.proof.message) });
    expect([answer.status, answer.body.error]).toEqual([400, "signature_mismatch"]);
    expect((await rowOf(requested.proof.id)).status).toBe("PENDING");
  });

  it("says that a contract wallet needs a chain connection when none is configured", async () => {
    const without = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
    try {
      const requested = await requestSignatureProof(without, { asset: etherAsset, expectedAddress: wallet });
      const answer = await postJson<Refusal>(without, `${requested.token}/signature`, { signature: personalSign(ownerKey, requested.proof.message) });
      expect([answer.status, answer.body.error]).toEqual([400, "signature_mismatch"]);
      expect(answer.body.reason).toMatch(
        /smart-contract wallet's signature \(ERC-1271\) can be checked only through a chain connection for ethereum \(AOPD_CHAIN_ETHEREUM_URL\), and none is configured here\.$/,
      );
    } finally {
      await without.close();
    }
  });
});
