import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pollUntil } from "./poll-until.js";

/** anvil's first default accounts (from its default mnemonic), unlocked for `eth_sendTransaction`, 10,000 ETH each; lower case. */
export const anvilAccounts = [
  "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
  "0x70997970c51812dc3a010c7d01b50e20d17dc79c",
  "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
] as const;

/**
 * A hand-assembled ERC-20 subset (no compiler here): the constructor credits 10^24 units to its
 * deployer; the runtime treats every call as `transfer(address,uint256)` (balances keyed by
 * address in storage, a revert when the balance is short), emits `Transfer(from, to, amount)` and
 * returns true. Enough for the watcher, which reads only the receipt's `Transfer` logs.
 */
const runtime =
  "600435" +
  "602435" +
  "3354" +
  "8181" +
  "10" +
  "604d57" +
  "819003" +
  "3355" +
  "8154" +
  "8101" +
  "8255" +
  "600052" +
  "33" +
  "7fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef" +
  "60206000a3" +
  "6001600052" +
  "60206000f3" +
  "5b" +
  "600080fd";
const constructor = "69d3c21bcecceda1000000" + "3355" + "6052" + "80" + "6018" + "6000" + "39" + "6000" + "f3";
export const minimalTokenBytecode = `0x${constructor}${runtime}`;

export interface LocalAnvil {
  url: string;
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
  /** Sends from an unlocked account; anvil mines it into a block of its own at once. Returns the hash. */
  send(tx: { from: string; to?: string; value?: bigint; data?: string }): Promise<string>;
  /** Deploys the minimal token from `from`; returns its address. */
  deployToken(from: string): Promise<string>;
  /** Deploys a contract's creation code from `from`; returns its address. */
  deploy(from: string, bytecode: string): Promise<string>;
  /** `transfer(to, amount)` on the token; returns the hash. */
  transferToken(token: string, from: string, to: string, amount: bigint): Promise<string>;
  mine(blocks: number): Promise<void>;
  close(): Promise<void>;
}

/** The anvil binary that `@foundry-rs/anvil` installed for this platform (its optional dependency). */
function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const platform = `${process.platform === "win32" ? "win32" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  return join(dirname(require.resolve(`@foundry-rs/anvil-${platform}/package.json`)), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

/** A real EVM node on a free port; resolves once it listens. */
export async function startLocalAnvil(): Promise<LocalAnvil> {
  const child: ChildProcess = spawn(anvilBinary(), ["--port", "0", "--host", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`anvil exited with ${code}: ${output}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on (\S+)/.exec(output);
      if (listening) resolve(`http://${listening[1]}`);
    });
  });
  child.removeAllListeners("exit");
  let id = 1;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const hex = (value: bigint) => `0x${value.toString(16)}`;
  type Receipt = { contractAddress: string; status: string };
  // anvil mines each transaction at once, but under load its receipt can lag the hash briefly:
  // a transaction counts as sent once it is in a block, as a test that mines next expects.
  const minedReceipt = async (hash: string): Promise<Receipt> =>
    (await pollUntil(
      `the transaction ${hash} mined`,
      () => rpc<Receipt | null>("eth_getTransactionReceipt", [hash]),
      (receipt) => receipt !== null,
      { timeoutMs: 30_000, intervalMs: 100 },
    ))!;
  const sendAndMine = async (tx: Parameters<LocalAnvil["send"]>[0]) => {
    const hash = await rpc<string>("eth_sendTransaction", [
      { from: tx.from, ...(tx.to ? { to: tx.to } : {}), value: hex(tx.value ?? 0n), ...(tx.data ? { data: tx.data } : {}) },
    ]);
    return { hash, receipt: await minedReceipt(hash) };
  };
  const send: LocalAnvil["send"] = async (tx) => (await sendAndMine(tx)).hash;
  return {
    url,
    rpc,
    send,
    async deployToken(from) {
      const { receipt } = await sendAndMine({ from, data: minimalTokenBytecode });
      if (receipt.status !== "0x1") throw new Error("the token's deployment reverted");
      return receipt.contractAddress;
    },
    async deploy(from, bytecode) {
      const { receipt } = await sendAndMine({ from, data: bytecode });
      if (receipt.status !== "0x1") throw new Error("the contract's deployment reverted");
      return receipt.contractAddress;
    },
    transferToken(token, from, to, amount) {
      const data = `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, "0")}${amount.toString(16).padStart(64, "0")}`;
      return send({ from, to: token, data });
    },
    async mine(blocks) {
      await rpc("anvil_mine", [hex(BigInt(blocks))]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
