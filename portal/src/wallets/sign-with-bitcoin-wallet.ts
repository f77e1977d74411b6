import type { WalletSignature } from "./discovered-wallet.js";

/** A sats-connect provider (Xverse and others): `request(method, params)`. */
interface SatsConnectProvider {
  request(method: string, params: unknown): Promise<unknown>;
}

/** The provider's answer: JSON-RPC (`result` or `error`) or sats-connect's own (`status`). */
async function call<T>(provider: SatsConnectProvider, method: string, params: unknown): Promise<T> {
  const answer = (await provider.request(method, params)) as { result?: T; error?: { message?: string }; status?: string };
  if (answer?.error || answer?.status === "error" || answer?.result === undefined) throw new Error(answer?.error?.message ?? `The wallet refused ${method}.`);
  return answer.result;
}

/**
 * sats-connect's request interface: `getAddresses` (payment and ordinals addresses), then
 * `signMessage` by the address the proof asks for when the wallet holds it. Segwit and Taproot
 * addresses sign BIP-322, legacy ones ECDSA (BIP-137), as the server verifies each; the base64
 * signature goes to the server as the wallet gives it.
 */
export async function signWithBitcoinWallet(provider: SatsConnectProvider, message: string, wanted: string | null): Promise<WalletSignature> {
  const { addresses } = await call<{ addresses: { address: string; purpose?: string }[] }>(provider, "getAddresses", {
    purposes: ["payment", "ordinals"],
    message: "The address whose ownership you prove",
  });
  const chosen = addresses.find((entry) => entry.address === wanted) ?? addresses.find((entry) => entry.purpose === "payment") ?? addresses[0];
  if (!chosen) throw new Error("The wallet shared no address.");
  const protocol = /^(bc1|tb1|bcrt1)/i.test(chosen.address) ? "BIP322" : "ECDSA";
  const { signature } = await call<{ signature: string }>(provider, "signMessage", { address: chosen.address, message, protocol });
  return { address: chosen.address, signature };
}
