import { ScreeningProviderClient } from "./screening-provider-client.js";

/** What a listed address does to a new proof request: `flag` creates it LISTED, `refuse` refuses it. */
export type ScreeningPolicy = "flag" | "refuse";

export interface ScreeningProviderConfig {
  client: ScreeningProviderClient;
  /** `AOPD_SCREENING_PROVIDER_INTERVAL_SECONDS`: how often each replica looks for proofs the provider has not screened (0: never). @default 10 */
  intervalSeconds: number;
  /** `AOPD_SCREENING_PROVIDER_BATCH`: proofs one replica takes per pass. @default 50 */
  batchSize: number;
  /** `AOPD_SCREENING_PROVIDER_CONCURRENCY`: requests in flight per replica. @default 4 */
  concurrency: number;
  /** The least time between two attempts at one proof across replicas (the lease). @default 60 // seconds */
  retrySeconds: number;
}

export interface ScreeningConfig {
  /** `AOPD_SCREENING_POLICY`: `flag` or `refuse`. @default "flag" */
  policy: ScreeningPolicy;
  /** The commercial screening provider, when `AOPD_SCREENING_PROVIDER_URL` is set; never required. */
  provider: ScreeningProviderConfig | undefined;
}

/**
 * Reads the screening settings. The provider's key (`AOPD_SCREENING_PROVIDER_KEY`) goes into the
 * client and nowhere else (see screening-provider-client.ts). In production the provider must be
 * reached over HTTPS (the key travels in a header) and must have a key.
 */
export function screeningConfigFromEnv(env: NodeJS.ProcessEnv, production: boolean, integer: (name: string, fallback: number) => number): ScreeningConfig {
  const policy = (env.AOPD_SCREENING_POLICY ?? "flag").trim().toLowerCase();
  if (policy !== "flag" && policy !== "refuse")
    throw new Error(`AOPD_SCREENING_POLICY must be flag or refuse; got ${JSON.stringify(env.AOPD_SCREENING_POLICY)}.`);
  const url = env.AOPD_SCREENING_PROVIDER_URL?.trim();
  if (!url) return { policy, provider: undefined };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("AOPD_SCREENING_PROVIDER_URL is not a URL (the provider's base URL, e.g. https://public.chainalysis.com).");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("AOPD_SCREENING_PROVIDER_URL must be an http(s) URL.");
  if (parsed.username || parsed.password || parsed.search) {
    throw new Error("AOPD_SCREENING_PROVIDER_URL must carry no credentials or query; give the key in AOPD_SCREENING_PROVIDER_KEY.");
  }
  const key = env.AOPD_SCREENING_PROVIDER_KEY ?? "";
  if (production && parsed.protocol !== "https:") throw new Error("AOPD_SCREENING_PROVIDER_URL must be https in production: the API key travels in a header.");
  if (production && key.trim() === "") throw new Error("AOPD_SCREENING_PROVIDER_KEY is required in production when AOPD_SCREENING_PROVIDER_URL is set.");
  const name = env.AOPD_SCREENING_PROVIDER_NAME?.trim() || "Chainalysis sanctions API";
  const timeoutMs = Math.max(1, integer("AOPD_SCREENING_PROVIDER_TIMEOUT_SECONDS", 10)) * 1_000;
  return {
    policy,
    provider: {
      client: new ScreeningProviderClient(name, url, key, timeoutMs),
      intervalSeconds: integer("AOPD_SCREENING_PROVIDER_INTERVAL_SECONDS", 10),
      batchSize: Math.max(1, integer("AOPD_SCREENING_PROVIDER_BATCH", 50)),
      concurrency: Math.max(1, integer("AOPD_SCREENING_PROVIDER_CONCURRENCY", 4)),
      retrySeconds: Math.max(1, integer("AOPD_SCREENING_PROVIDER_RETRY_SECONDS", 60)),
    },
  };
}
