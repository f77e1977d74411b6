import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type { AopdConfig } from "../../aopd-config.js";
import { chainVariable, checkableNetworks, type CheckableNetwork } from "../../chain/chain-checks-config.js";
import { ChainConnectionError } from "../../chain/chain-connection-error.js";
import { EvmJsonRpcClient } from "../../chain/evm-json-rpc-client.js";
import { ethereumMessageHash } from "../../ownership/index.js";
import { BusyRefusal, SubmissionRefusal, type SubmissionRefusalCode } from "../../proofs/proof-refusal.js";
import { counterfactualSignatureCheckBytecode, erc6492Suffix } from "./erc6492/counterfactual-signature-check.js";

/** `isValidSignature(bytes32,bytes)`'s selector, which is also the magic value a valid signature returns (ERC-1271). */
const isValidSignatureSelector = "1626ba7e";
/**
 * Gas one check may use: enough for a multi-owner Safe (tens of thousands per owner), bounded so
 * that a contract cannot make the node work without end. @default 1_000_000
 */
export const contractSignatureGas = 1_000_000;
/** The largest signature passed to a contract (a Safe's concatenated owner signatures fit many times). */
const maxContractSignatureBytes = 2_048;
/** An ERC-6492 check deploys the account inside the call (a smart account's factory takes a few hundred thousand). */
export const counterfactualSignatureGas = 3_000_000;
/** The largest wrapped (ERC-6492) signature: the factory's calldata travels in it. */
const maxWrappedSignatureBytes = 8_192;

/** Whether a signature is ERC-6492's wrapped form (it ends with the 32 magic bytes). */
export const isWrappedSignature = (signature: string) => signature.length > 66 && signature.toLowerCase().endsWith(erc6492Suffix);

/**
 * Whether a refused Ethereum-family signature may be a contract wallet's: it did not recover to
 * the address (or is not the 65 bytes `ecrecover` reads) and is hexadecimal, as wallets give it.
 */
export function isContractWalletCandidate(family: string, failure: { code: string }, signature: string): boolean {
  return family === "ethereum" && (failure.code === "SIGNATURE_MISMATCH" || failure.code === "MALFORMED_SIGNATURE") && /^0x([0-9a-fA-F]{2})+$/.test(signature);
}

/**
 * ERC-1271: a smart-contract wallet (a Safe, another contract account) has no key of its own, so
 * no signature recovers to its address; the wallet contract says whether it accepts one, through
 * `isValidSignature(hash, signature)` over the EIP-191 hash of the message. Asked only after
 * `ecrecover` failed, and only through the operator's chain connection of the proof's network
 * (AOPD_CHAIN_<NETWORK>_URL): the answer is the chain's at the block named, which is recorded.
 *
 * Threat: the contract is the customer's code, run by our node. Its answer counts only when it is
 * exactly the magic value (a contract that returns anything, or an address with no code, which
 * returns nothing, is refused); the call is an `eth_call` (nothing is sent or signed), capped in
 * gas and by the connection's request timeout, and the signature passed is capped in size.
 * Returns the block of the check, or throws the refusal: ecrecover's own code (`signature_mismatch`
 * or `malformed_signature`) with the contract's answer, or the missing connection, added to its
 * reason; `service_unavailable` when the node cannot be asked.
 *
 * ERC-6492: a smart account that is not deployed yet (an ERC-4337 wallet before its first
 * transaction) signs with the wrapped form, abi.encode(factory, factoryCalldata, signature) and
 * the magic suffix. Such a signature is checked by one `eth_call` with no `to` whose init code is
 * the deployless validator (erc6492/): it deploys the account from its factory inside the call
 * (nothing is sent, nothing stays), then asks its isValidSignature. Only the answer 0x01 verifies;
 * the scheme is then `erc6492`, with the block recorded as for ERC-1271.
 */
export async function verifyContractWalletSignature(
  config: Pick<AopdConfig, "assets" | "chain">,
  /** `signature`: 0x and hexadecimal (`isContractWalletCandidate`); `recoveryFailure`: how `ecrecover` refused it, the code a refusal keeps. */
  input: { asset: string; address: string; message: string; signature: string; recoveryFailure: { code: SubmissionRefusalCode; reason: string } },
): Promise<{ blockHeight: number; scheme: "erc1271" | "erc6492" }> {
  const network = config.assets.get(input.asset)?.network ?? null;
  const connection = config.chain.connections.find((candidate) => candidate.network === network && candidate.client instanceof EvmJsonRpcClient);
  if (!network || !connection) {
    const variable = network !== null && network in checkableNetworks ? ` (${chainVariable(network as CheckableNetwork)}_URL)` : "";
    throw new SubmissionRefusal(
      input.recoveryFailure.code,
      `${input.recoveryFailure.reason} A smart-contract wallet's signature (ERC-1271) can be checked only through a chain connection for ${network ?? "the asset's network"}${variable}, and none is configured here.`,
    );
  }
  const signature = hexToBytes(input.signature.slice(2));
  if (isWrappedSignature(input.signature)) return verifyWrappedSignature(connection.client as EvmJsonRpcClient, network, input, signature);
  if (signature.length > maxContractSignatureBytes)
    throw new SubmissionRefusal(
      input.recoveryFailure.code,
      `${input.recoveryFailure.reason} A contract wallet's signature may have at most ${maxContractSignatureBytes} bytes.`,
    );
  const data = `0x${isValidSignatureSelector}${bytesToHex(ethereumMessageHash(input.message))}${word(64)}${abiBytes(signature)}`;
  let answer: Awaited<ReturnType<EvmJsonRpcClient["callContract"]>>;
  try {
    answer = await (connection.client as EvmJsonRpcClient).callContract(input.address, data, contractSignatureGas);
  } catch (error) {
    if (error instanceof ChainConnectionError) {
      throw new BusyRefusal(
        `The ${network} node could not be asked whether the wallet contract accepts the signature; send the same submission again in a moment.`,
        5,
      );
    }
    throw error;
  }
  if ("returned" in answer && answer.returned.toLowerCase().startsWith(`0x${isValidSignatureSelector}`) && answer.returned.length === 66)
    return { blockHeight: answer.blockHeight, scheme: "erc1271" };
  throw new SubmissionRefusal(
    input.recoveryFailure.code,
    `${input.recoveryFailure.reason} Nor does the contract at this address accept it as a smart-contract wallet (ERC-1271 isValidSignature at block ${answer.blockHeight}).`,
  );
}

const word = (value: number) => value.toString(16).padStart(64, "0");
/** ABI encoding of dynamic bytes: the length word, then the bytes padded to whole words. */
const abiBytes = (bytes: Uint8Array) => `${word(bytes.length)}${bytesToHex(bytes).padEnd(Math.ceil(bytes.length / 32) * 64, "0")}`;

async function verifyWrappedSignature(
  client: EvmJsonRpcClient,
  network: string,
  input: { address: string; message: string; recoveryFailure: { code: SubmissionRefusalCode; reason: string } },
  signature: Uint8Array,
): Promise<{ blockHeight: number; scheme: "erc6492" }> {
  if (signature.length > maxWrappedSignatureBytes) {
    throw new SubmissionRefusal(
      input.recoveryFailure.code,
      `${input.recoveryFailure.reason} A counterfactual account's signature (ERC-6492) may have at most ${maxWrappedSignatureBytes} bytes.`,
    );
  }
  // The validator's constructor arguments: abi.encode(address signer, bytes32 hash, bytes signature).
  const data = `${counterfactualSignatureCheckBytecode}${word(0).slice(40)}${input.address.slice(2).toLowerCase()}${bytesToHex(ethereumMessageHash(input.message))}${word(96)}${abiBytes(signature)}`;
  let answer: Awaited<ReturnType<EvmJsonRpcClient["callContract"]>>;
  try {
    answer = await client.callContract(null, data, counterfactualSignatureGas);
  } catch (error) {
    if (error instanceof ChainConnectionError) {
      throw new BusyRefusal(
        `The ${network} node could not be asked whether the smart account accepts the signature; send the same submission again in a moment.`,
        5,
      );
    }
    throw error;
  }
  if ("returned" in answer && answer.returned === "0x01") return { blockHeight: answer.blockHeight, scheme: "erc6492" };
  throw new SubmissionRefusal(
    input.recoveryFailure.code,
    `${input.recoveryFailure.reason} Nor does the counterfactual smart account accept it (ERC-6492: its factory's deployment and isValidSignature, checked at block ${answer.blockHeight} without deploying anything).`,
  );
}
