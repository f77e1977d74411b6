/**
 * The settings of proof receipts (docs/receipts.md). Read from the environment by
 * `aopdConfigFromEnv`; the keys themselves are parsed at start by `loadReceiptSigningKeys`.
 */
export interface ReceiptConfig {
  /**
   * `AOPD_RECEIPT_SIGNING_KEY`: the EC P-256 private key receipts are signed with, as PKCS#8 PEM
   * (`-----BEGIN PRIVATE KEY-----`) or a private JWK (JSON with `d`). Unset: a key is generated at
   * start, which production refuses. @default unset
   */
  signingKey: string | undefined;
  /**
   * `AOPD_RECEIPT_PREVIOUS_KEYS`: public keys that signed receipts before the current one, still
   * published so that those receipts verify: a JWKS (`{"keys":[...]}`) or a JSON array of public
   * JWKs, each with its `kid`. @default none
   */
  previousKeys: string | undefined;
  /** `AOPD_RECEIPT_ISSUER`: the receipts' `iss`, which a verifier checks; the deployment's public base URL is a good choice. @default "compliance-graph-aopd" */
  issuer: string;
  /** `AOPD_RECEIPT_VALIDITY_DAYS`: how long a receipt is valid (`exp` - `iat`), 1 to 3650. @default 365 // days */
  validityDays: number;
  /**
   * `AOPD_RECEIPT_FOR_LISTED` (`refuse` or `issue`): whether a VERIFIED proof whose address is
   * LISTED (on the list or at the provider) gets a receipt. A receipt vouches for an address to
   * others, so by default a listed one gets none; `issue` is for a deployment whose policy is to
   * vouch anyway, the receipt then stating LISTED. @default "refuse"
   */
  forListed?: "refuse" | "issue";
}

export function receiptConfigFromEnv(env: NodeJS.ProcessEnv): ReceiptConfig {
  const text = (name: string) => (env[name]?.trim() ? env[name] : undefined);
  const days = text("AOPD_RECEIPT_VALIDITY_DAYS") ?? "365";
  if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 3_650) {
    throw new Error(`AOPD_RECEIPT_VALIDITY_DAYS must be a whole number of days from 1 to 3650; got ${JSON.stringify(days)}.`);
  }
  const forListed = (text("AOPD_RECEIPT_FOR_LISTED") ?? "refuse").trim().toLowerCase();
  if (forListed !== "refuse" && forListed !== "issue")
    throw new Error(`AOPD_RECEIPT_FOR_LISTED must be refuse or issue; got ${JSON.stringify(env.AOPD_RECEIPT_FOR_LISTED)}.`);
  return {
    forListed,
    signingKey: text("AOPD_RECEIPT_SIGNING_KEY"),
    previousKeys: text("AOPD_RECEIPT_PREVIOUS_KEYS"),
    issuer: text("AOPD_RECEIPT_ISSUER")?.trim() ?? "compliance-graph-aopd",
    validityDays: Number(days),
  };
}
