import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { AbiCoder, getCreate2Address, keccak256, Wallet, ZeroHash } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccounts, erc1271WalletBytecode, startLocalAnvil, type LocalAnvil } from "@compliance-graph/test-kit";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { counterfactualSignatureCheckBytecode, erc6492Suffix } from "../../src/kinds/signature/erc6492/counterfactual-signature-check.js";
import { etherAsset, postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

type Refusal = { error: string; reason: string };

/**
 * A CREATE2 factory, hand-assembled for the test: its calldata is the init code it deploys, with
 * salt 0, and it returns the new address. Runtime (15 bytes): CALLDATACOPY the calldata to memory 0;
 * CREATE2(0, 0, CALLDATASIZE, 0); MSTORE the address at 0; RETURN 32 bytes. Its constructor copies
 * the runtime (which follows its 10 bytes) and returns it.
 */
/** solc-js ships without types; its one call used here. */
const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };

const factoryBytecode = "0x600f600a5f39600f5ff3" + "365f5f37" + "5f365f5ff5" + "5f52" + "60205ff3";

/**
 * ERC-6492 on a real EVM node (anvil): an ERC-1271 wallet that is never deployed, whose address
 * follows from the factory and its init code (CREATE2). Its owner signs; the wrapped signature
 * carries the factory call that would deploy it. aopd checks it by the deployless validator call,
 * after which the account still has no code.
 */
describe.each(databaseDrivers)("counterfactual smart-account signatures (ERC-6492) on %s", (driver) => {
  let anvil: LocalAnvil;
  let aopd: TestAopd;
  let factory: string;
  let account: string;
  const owner = Wallet.createRandom();
  const stranger = Wallet.createRandom();
  const initCode = erc1271WalletBytecode(owner.address);

  beforeAll(async () => {
    anvil = await startLocalAnvil();
    factory = await anvil.deploy(anvilAccounts[0], factoryBytecode);
    account = getCreate2Address(factory, ZeroHash, keccak256(initCode));
    const { chain } = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_CHECK_INTERVAL_SECONDS: "0" });
    aopd = await startTestAopd(driver, { config: { chain, rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([aopd?.close(), anvil?.close()]);
  });

  const wrapped = (innerSignature: string) =>
    `${AbiCoder.defaultAbiCoder().encode(["address", "bytes", "bytes"], [factory, initCode, innerSignature])}${erc6492Suffix}`;
  const rowOf = (id: string) =>
    aopd.services.db
      .selectFrom("aopd_proof")
      .select(["status", "signature_scheme", "contract_check_block_height"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("verifies the owner's wrapped signature of the undeployed account, records ERC6492 and the block, and deploys nothing", async () => {
    expect(await anvil.rpc<string>("eth_getCode", [account, "latest"])).toBe("0x");
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: account });
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${requested.token}/signature`, {
      signature: wrapped(await owner.signMessage(requested.proof.message)),
    });
    expect([answer.status, answer.body.proof.status]).toEqual([200, "VERIFIED"]);
    const row = await rowOf(requested.proof.id);
    expect(row).toMatchObject({ status: "VERIFIED", signature_scheme: "erc6492" });
    expect(Number(row.contract_check_block_height)).toBeGreaterThanOrEqual(0);
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { ... on AopdSignatureProof { signatureScheme } } } }`, {
      id: requested.proof.id,
    });
    expect(body.data).toEqual({ aopd: { proof: { signatureScheme: "ERC6492" } } });
    expect(await anvil.rpc<string>("eth_getCode", [account, "latest"])).toBe("0x");
  });

  it("refuses another key's wrapped signature, saying the counterfactual account did not accept it, and changes nothing", async () => {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: account });
    const answer = await postJson<Refusal>(aopd, `${requested.token}/signature`, { signature: wrapped(await stranger.signMessage(requested.proof.message)) });
    expect([answer.status, answer.body.error]).toEqual([400, "malformed_signature"]);
    expect(answer.body.reason).toMatch(/Nor does the counterfactual smart account accept it \(ERC-6492: .* at block \d+ without deploying anything\)\.$/);
    expect(await rowOf(requested.proof.id)).toEqual({ status: "PENDING", signature_scheme: null, contract_check_block_height: null });
  });

  it("refuses the owner's wrapped signature for another account's address (the factory call deploys another address)", async () => {
    const other = getCreate2Address(factory, ZeroHash, keccak256(erc1271WalletBytecode(stranger.address)));
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: other });
    const answer = await postJson<Refusal>(aopd, `${requested.token}/signature`, { signature: wrapped(await owner.signMessage(requested.proof.message)) });
    expect([answer.status, answer.body.error]).toEqual([400, "malformed_signature"]);
    expect((await rowOf(requested.proof.id)).status).toBe("PENDING");
  });
});

describe("the deployless validator's bytecode", () => {
  it("is what solc 0.8.28 makes of CounterfactualSignatureCheck.sol", () => {
    const source = readFileSync(new URL("../../src/kinds/signature/erc6492/CounterfactualSignatureCheck.sol", import.meta.url), "utf8");
    const input = {
      language: "Solidity",
      sources: { "C.sol": { content: source } },
      settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "paris", outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>> };
    expect(`0x${output.contracts["C.sol"]!.CounterfactualSignatureCheck!.evm.bytecode.object}`).toBe(counterfactualSignatureCheckBytecode);
  }, 60_000);
});
