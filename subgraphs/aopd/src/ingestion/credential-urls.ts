import type { AopdConfig } from "../aopd-config.js";

/**
 * The two public URLs of one proof's one-time credential: where a wallet posts its AOPP signature
 * and the customer's portal page. Both carry the same token; neither carries the proof's id, so
 * holding one gives no handle on any other proof. Built from configuration only, so they work on
 * every replica and after restarts.
 */
export function credentialUrls(config: Pick<AopdConfig, "callbackBaseUrl" | "portalUrl">, token: string): { callbackUrl: string; portalUrl: string } {
  return {
    callbackUrl: `${config.callbackBaseUrl.replace(/\/+$/, "")}/${token}`,
    portalUrl: `${config.portalUrl.replace(/\/+$/, "")}/${token}`,
  };
}
