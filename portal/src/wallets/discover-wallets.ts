import { inlineIcon, type DiscoveredWallet } from "./discovered-wallet.js";

type AnyWindow = Window & Record<string, unknown>;

interface Eip6963Announcement {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
}

interface StandardWallet {
  name: string;
  icon: string;
  features: Record<string, unknown>;
}

/**
 * Finds the wallets of this browser by the interfaces wallets publish themselves through, with
 * no library in the first page (their code is loaded only when one is picked):
 * - Ethereum family: EIP-6963, every injected wallet announces itself on `eip6963:announceProvider`
 *   in answer to `eip6963:requestProvider` (and at any time later); `window.ethereum` only when
 *   none does, for older wallets.
 * - Solana: the Wallet Standard's two events (`wallet-standard:app-ready` carries our `register`,
 *   `wallet-standard:register-wallet` carries a wallet's), keeping wallets with `solana:signMessage`.
 * - TRON: TronLink's `window.tronWeb` with `trx.signMessageV2`.
 * - Bitcoin: the sats-connect providers a wallet lists in `window.btc_providers` (Xverse and
 *   others), resolved by their `id` path on `window`, else `window.XverseProviders.BitcoinProvider`.
 * `onChange` is called when a wallet announces itself after the first look.
 */
export function discoverWallets(onChange: () => void): () => DiscoveredWallet[] {
  const announced = new Map<string, DiscoveredWallet>();
  const add = (wallet: DiscoveredWallet) => {
    if (announced.has(wallet.key)) return;
    announced.set(wallet.key, wallet);
    onChange();
  };
  window.addEventListener("eip6963:announceProvider", (event) => {
    const detail = (event as CustomEvent<Eip6963Announcement>).detail;
    if (!detail?.info?.uuid || typeof detail.provider?.request !== "function") return;
    add({
      key: `eip6963:${detail.info.uuid}`,
      name: String(detail.info.name),
      icon: inlineIcon(detail.info.icon),
      family: "ethereum",
      provider: detail.provider,
    });
  });
  const register = (...wallets: StandardWallet[]) => {
    for (const wallet of wallets) {
      if (!wallet?.features?.["solana:signMessage"] || !wallet.features["standard:connect"]) continue;
      add({ key: `wallet-standard:${wallet.name}`, name: String(wallet.name), icon: inlineIcon(wallet.icon), family: "solana", provider: wallet });
    }
    return () => undefined;
  };
  window.addEventListener("wallet-standard:register-wallet", (event) => {
    const callback = (event as CustomEvent<(api: { register: typeof register }) => void>).detail;
    if (typeof callback === "function") callback({ register });
  });
  window.dispatchEvent(new CustomEvent("wallet-standard:app-ready", { detail: { register } }));
  window.dispatchEvent(new Event("eip6963:requestProvider"));

  return () => [...announced.values(), ...injectedWallets([...announced.values()])];
}

/** The wallets that publish a global object instead of announcing themselves. */
function injectedWallets(announced: DiscoveredWallet[]): DiscoveredWallet[] {
  const page = window as unknown as AnyWindow;
  const found: DiscoveredWallet[] = [];
  const ethereum = page.ethereum as { request?: unknown } | undefined;
  if (!announced.some((wallet) => wallet.family === "ethereum") && typeof ethereum?.request === "function") {
    found.push({ key: "injected:ethereum", name: "", icon: undefined, family: "ethereum", provider: ethereum });
  }
  const tronWeb = page.tronWeb as { trx?: { signMessageV2?: unknown } } | undefined;
  if (typeof tronWeb?.trx?.signMessageV2 === "function")
    found.push({ key: "injected:tronweb", name: "TronLink", icon: undefined, family: "tron", provider: tronWeb });
  const listed = Array.isArray(page.btc_providers) ? (page.btc_providers as { id?: unknown; name?: unknown; icon?: unknown }[]) : [];
  for (const entry of listed) {
    const provider = typeof entry.id === "string" ? objectAt(page, entry.id) : undefined;
    if (typeof (provider as { request?: unknown } | undefined)?.request !== "function") continue;
    found.push({ key: `sats-connect:${String(entry.id)}`, name: String(entry.name ?? entry.id), icon: inlineIcon(entry.icon), family: "bitcoin", provider });
  }
  const xverse = objectAt(page, "XverseProviders.BitcoinProvider") as { request?: unknown } | undefined;
  if (listed.length === 0 && typeof xverse?.request === "function")
    found.push({ key: "sats-connect:xverse", name: "Xverse", icon: undefined, family: "bitcoin", provider: xverse });
  return found;
}

/** `window.A.B` for the path `A.B` (own properties only, at most four steps). */
function objectAt(page: AnyWindow, path: string): unknown {
  let current: unknown = page;
  for (const step of path.split(".").slice(0, 4)) {
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
