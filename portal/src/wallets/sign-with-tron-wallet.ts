import type { WalletSignature } from "./discovered-wallet.js";

/** TronLink's `window.tronWeb`, as far as the portal uses it. */
interface TronWeb {
  defaultAddress?: { base58?: string | false };
  trx: { signMessageV2(message: string): Promise<string> };
}

/**
 * TronLink: asks for access (`tron_requestAccounts` on `window.tronLink`, when present), then
 * `signMessageV2` of the message by the wallet's current account; the hex signature goes to the
 * server as the wallet gives it.
 */
export async function signWithTronWallet(tronWeb: TronWeb, message: string): Promise<WalletSignature> {
  const tronLink = (window as unknown as { tronLink?: { request?(args: { method: string }): Promise<unknown> } }).tronLink;
  await tronLink?.request?.({ method: "tron_requestAccounts" });
  const address = tronWeb.defaultAddress?.base58;
  if (!address) throw new Error("The wallet shared no account; unlock TronLink and try again.");
  return { address, signature: await tronWeb.trx.signMessageV2(message) };
}
