import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { base64 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBitcoinAddress, proofPsbt, verifyBitcoinMessage } from "../../src/ownership/index.js";

/**
 * The PSBT proof signed by Electrum (Debian's package, `apt-get install electrum`), offline, with
 * the two signing cosigners of a 2-of-3 P2WSH multisig wallet: aopd offers the PSBT, the first
 * cosigner signs it (a partially signed PSBT comes back), the second signs that (Electrum then
 * hands back the finished transaction), and aopd checks both answers.
 */

const electrum = process.env.ELECTRUM_PATH ?? "/usr/bin/electrum";
const python = process.env.ELECTRUM_PYTHON ?? "/usr/bin/python3";
const run = promisify(execFile);
const message = "I confirm that I control this vault for CUST-7. Nonce: 0d3f9a1c7b5e2d4f6a8c0e1b";

describe("a PSBT proof signed by Electrum's 2-of-3 multisig wallet", () => {
  let folder: string;
  let vault: string;
  const sign = async (cosigner: number, transaction: string) => {
    const { stdout } = await run(
      electrum,
      ["--offline", "-D", join(folder, "data"), "-w", join(folder, `cosigner${cosigner}`), "signtransaction", transaction],
      { timeout: 120_000 },
    );
    return stdout.trim();
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "aopd-electrum-"));
    const script = fileURLToPath(new URL("./electrum-multisig-wallets.py", import.meta.url));
    vault = (await run(python, [script, folder], { timeout: 120_000 })).stdout.trim();
  }, 180_000);
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("verifies the vault's signatures and refuses the PSBT while one is missing", async () => {
    const address = parseBitcoinAddress(vault);
    if (!address.ok) throw new Error(address.reason);
    expect(address.format).toBe("P2WSH");
    const offered = base64.encode(proofPsbt(address, message));

    const once = await sign(0, offered);
    expect(once.startsWith("cHNidP8")).toBe(true);
    expect(verifyBitcoinMessage({ address: vault, message, signature: once })).toMatchObject({
      ok: false,
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("needs exactly 2 signatures; the witness has 1"),
    });

    const twice = await sign(1, once);
    expect(twice).toMatch(/^000000000001[0-9a-f]+$/);
    const result = verifyBitcoinMessage({ address: vault, message, signature: twice });
    expect(result).toMatchObject({ ok: true, scheme: "psbt", script: { template: "sortedmulti", threshold: 2, keyCount: 3 } });
    if (!result.ok || !result.script) throw new Error("expected a script spend");
    expect(result.script.signers).toHaveLength(2);
    expect(verifyBitcoinMessage({ address: vault, message: message + " ", signature: twice })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  }, 300_000);
});
