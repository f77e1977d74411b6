import { describe, expect, it } from "vitest";
import { blockbookFixtures } from "../support/blockbook-stand-in.js";
import { addressOfOutputScript, p2wpkhAddressOfWitness, parseRawBitcoinTransaction } from "../support/raw-bitcoin-transaction.js";

const fixtures = Object.entries(blockbookFixtures());
const recorded = fixtures.filter(([name]) => !name.startsWith("constructed-"));

/**
 * The recorded fixtures (see fixtures/blockbook/README.md) are Blockbook's answers for real mainnet
 * transactions. Each carries the transaction's serialization (`hex`); everything the watcher reads
 * must follow from those bytes, so an edited amount, address or txid fails here.
 */
describe("recorded Blockbook fixtures", () => {
  it("holds recorded answers beside the constructed ones", () => {
    expect(recorded.map(([name]) => name).sort()).toEqual([
      "73b1ad97194e426031e5c692869de2d83dc2ff6033fc6f0ab5514345f92eaf0d",
      "8c1e3dec662d1f2a5e322ccef5eca263f98eb16723c6f990be0c88c1db113fb1",
    ]);
  });

  it.each(recorded)("%s: the file name is the txid, and the txid is the hash of the transaction's bytes", (name, tx) => {
    expect(tx.txid).toBe(name);
    expect(parseRawBitcoinTransaction(tx.hex as string).txid).toBe(name);
  });

  it.each(recorded)("%s: every output's amount, script and address follow from the bytes", (_name, tx) => {
    const raw = parseRawBitcoinTransaction(tx.hex as string);
    const vout = tx.vout as { value: string; hex: string; addresses: string[] }[];
    expect(vout.map((output) => ({ value: BigInt(output.value), script: output.hex, addresses: output.addresses }))).toEqual(
      raw.outputs.map((output) => ({ value: output.value, script: output.script, addresses: [addressOfOutputScript(output.script)] })),
    );
  });

  it.each(recorded)("%s: each P2WPKH input's address is the hash of the public key that signed it", (_name, tx) => {
    const raw = parseRawBitcoinTransaction(tx.hex as string);
    expect(tx.vin.map((input) => input.addresses)).toEqual(raw.inputs.map((input) => [p2wpkhAddressOfWitness(input.witness)]));
  });
});
