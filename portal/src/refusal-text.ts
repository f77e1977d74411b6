import { PortalApiError } from "./portal-api.js";
import type { Translator } from "./translations.js";

/**
 * A refusal in the customer's language. The server's code picks the text; where the allowed form
 * depends on the chain (a transaction id is 64 hexadecimal characters on Bitcoin, `0x` and 64 on
 * Ethereum, a base58 signature on Solana), `error.<code>.<addressFamily>` says it for that chain.
 * Only a code the translations do not know shows the server's own English sentence; anything that
 * is not a refusal (a network failure) is an outage.
 */
export function refusalText(t: Translator, error: unknown, addressFamily: string | null | undefined): string {
  if (!(error instanceof PortalApiError)) return t("error.service_unavailable");
  const specific = addressFamily ? `error.${error.code}.${addressFamily}` : undefined;
  if (specific && t.has(specific)) return t(specific);
  return t.has(`error.${error.code}`) ? t(`error.${error.code}`) : error.message;
}
