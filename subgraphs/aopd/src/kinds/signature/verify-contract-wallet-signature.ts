import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type { AopdConfig } from "../../aopd-config.js";
import { chainVariable, checkableNetworks, type CheckableNetwork } from "../../chain/chain-checks-config.js";
import { ChainConnectionError } from "../../chain/chain-connection-error.js";
import { EvmJsonRpcClient } from "../../chain/evm-json-rpc-client.js";
import { ethereumMessageHash } from "../../ownership/index.js";
import { BusyRefusal, SubmissionRefusal, type SubmissionRefusalCode } from "../../proofs/proof-refusal.js";

/** `isValidSignature(bytes32,bytes)`'s selector, which is also the magic value a valid signature returns (ERC-1271). */
const isValidSignatureSelector = "1626ba7e";
/**
 * Gas one check may use: enough for a multi-owner Safe (tens of thousands per owner), bounded so
 * that a contract cannot make the node work without end. @default 1_000_000
 */
export const contractSignatureGas = 1_000_000;
/** The largest signature passed to a contract (a Safe's concatenated owner signatures fit many times). */
const maxContractSignatureBytes = 2_048;

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
 */
export async function verifyContractWalletSignature(
  config: Pick<AopdConfig, "assets" | "chain">,
  /** `signature`: 0x and hexadecimal (`isContractWalletCandidate`); `recoveryFailure`: how `ecrecover` refused it, the code a refusal keeps. */
  input: { asset: string; address: string; message: string; signature: string; recoveryFailure: { code: SubmissionRefusalCode; reason: string } },
): Promise<{ blockHeight: number }> {
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
  if (signature.length > maxContractSignatureBytes) throw new SubmissionRefusal(input.recoveryFailure.code, `${input.recoveryFailure.reason} A contract wallet's signature may have at most ${maxContractSignatureBytes} bytes.`);
  const word = (value: number) => value.toString(16).padStart(64, "0");
  const padded = bytesToHex(signature).padEnd(Math.ceil(signature.length / 32) * 64, "0");
  const data = `0x${isValidSignatureSelector}${bytesToHex(ethereumMessageHash(input.message))}${word(64)}${word(signature.length)}${padded}`;
  let answer: Awaited<ReturnType<EvmJsonRpcClient["callContract"]>>;
  try {
    answer = await (connection.client as EvmJsonRpcClient).callContract(input.address, data, contractSignatureGas);
  } catch (error) {
    if (error instanceof ChainConnectionError) {
      throw new BusyRefusal(`The ${network} node could not be asked whether the wallet contract accepts the signature; send the same submission again in a moment.`, 5);
    }
    throw error;
  }
  if ("returned" in answer && answer.returned.toLowerCase().startsWith(`0x${isValidSignatureSelector}`) && answer.returned.length === 66) return { blockHeight: answer.blockHeight };
  throw new SubmissionRefusal(
    input.recoveryFailure.code,
    `${input.recoveryFailure.reason} Nor does the contract at this address accept it as a smart-contract wallet (ERC-1271 isValidSignature at block ${answer.blockHeight}).`,
  );
}
