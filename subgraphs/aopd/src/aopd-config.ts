import { receiptConfigFromEnv, type ReceiptConfig } from "./receipts/receipt-config.js";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import type { PortalContact } from "@compliance-graph/portal-contract";
import { recordRetentionYearsFromEnv } from "./audit/record-retention.js";
import { chainChecksConfigFromEnv, type ChainChecksConfig } from "./chain/chain-checks-config.js";
import { screeningConfigFromEnv, type ScreeningConfig } from "./screening/screening-config.js";
import { databaseTimeoutsFromEnv, type DatabaseTimeouts } from "./database/database-timeouts.js";
import { defaultSatoshiBaseAmounts } from "./default-satoshi-base-amounts.js";
import { portalContactFrom } from "./portal/portal-contact-from.js";

export interface AopdConfig {
  /** Proof receipts: keys, issuer, validity (receipts/receipt-config.ts). */
  receipts: ReceiptConfig;
  /** `AOPD_PORT`. @default 4001 */
  port: number;
  /** `AOPD_HOST`. @default "127.0.0.1" */
  host: string;
  /** `NODE_ENV=production`: refuses weak settings, hides introspection. */
  production: boolean;
  /**
   * `AOPD_RECORD_RETENTION_YEARS`: how long after its last change a proof, its media and the audit
   * trail are kept at least (a proof on legal hold, longer). At least 1; at least 5 in production
   * (audit/record-retention.ts). @default 5 // years
   */
  recordRetentionYears: number;
  /** `DATABASE_URL`: a PostgreSQL server; unset means embedded PGlite. */
  databaseUrl: string | undefined;
  /** `AOPD_DATA_DIR`: PGlite's folder. @default ".data/aopd" */
  dataDir: string;
  /** `AOPD_DB_*_MS`, `AOPD_READY_TIMEOUT_MS`: the bounds of every wait on the database (see database/database-timeouts.ts). */
  database: DatabaseTimeouts;
  /** `AOPD_PORTAL_URL`. @default "http://localhost:4000/portal" */
  portalUrl: string;
  /** `AOPD_CALLBACK_BASE_URL`. @default "http://localhost:4000/aopp/callback" */
  callbackBaseUrl: string;
  /** `AOPD_SIGNATURE_PROOF_LIFETIME_SECONDS`. @default 604_800 // 7 days */
  signatureProofLifetimeSeconds: number;
  /** `AOPD_SATOSHI_PROOF_LIFETIME_SECONDS`. @default 172_800 // 48 hours */
  satoshiProofLifetimeSeconds: number;
  /**
   * `AOPD_SATOSHI_BASE_AMOUNTS`: JSON object from asset code to amount (the asset's lowest unit; a
   * token's own). @default 0.0001 of a unit of each asset with known decimals (see default-satoshi-base-amounts.ts)
   */
  satoshiBaseAmounts: Record<string, string>;
  /** `AOPD_MEDIA_PROOF_LIFETIME_SECONDS`: how long a media proof waits for its file. @default 604_800 // 7 days */
  mediaProofLifetimeSeconds: number;
  /** `AOPD_MEDIA_MAX_IMAGE_BYTES`: the largest PNG, JPEG or WebP accepted. @default 10_000_000 // 10 MB */
  mediaMaxImageBytes: number;
  /** `AOPD_MEDIA_MAX_VIDEO_BYTES`: the largest MP4 or WebM accepted. @default 100_000_000 // 100 MB */
  mediaMaxVideoBytes: number;
  /**
   * `AOPD_MEDIA_MAX_IMAGE_PIXELS`: the most pixels (width x height) an image may declare. A small
   * compressed file can declare a huge canvas (a decompression bomb) that would exhaust the memory
   * of whoever opens it to review it. @default 50_000_000 // 50 megapixels
   */
  mediaMaxImagePixels: number;
  /**
   * `AOPD_MEDIA_URL`: the public base of the officers' media route at the gateway; each proof's
   * `mediaUrl` is this plus `/<id>`. @default "http://localhost:4000/aopd/media"
   */
  mediaUrl: string;
  /**
   * `AOPD_MAX_CONCURRENT_UPLOADS`: uploads this replica streams into the database at once; each holds
   * a database connection (one transaction) for as long as its body takes, so keep it below the pool
   * size (10). More are answered `service_unavailable`. At least 1. @default 4
   */
  maxConcurrentUploads: number;
  /** `AOPD_UPLOAD_IDLE_SECONDS`: an upload that sends nothing for this long is aborted (and leaves nothing). @default 30 */
  uploadIdleSeconds: number;
  /**
   * `AOPD_MAX_UPLOADS_PER_CLIENT`: uploads at once from one client address on the portal (from one
   * officer, by token subject, on the officers' route), per replica; more are answered 429
   * `too_many_uploads`. Customers behind one NAT share an address, hence more than one. At least 1.
   * @default 2
   */
  maxUploadsPerClient: number;
  /**
   * `AOPD_UPLOAD_MIN_BYTES_PER_SECOND`: the least an upload must average over each window of
   * `AOPD_UPLOAD_RATE_WINDOW_SECONDS`, counting only time spent waiting for the client; slower is
   * cut off with 408 `upload_too_slow` (and leaves nothing). 0: no minimum. @default 10_000 // 80 kbit/s
   */
  uploadMinBytesPerSecond: number;
  /**
   * `AOPD_UPLOAD_RATE_WINDOW_SECONDS`: the window the minimum rate is averaged over, and the grace
   * period before its first judgement. At least 1. @default 20 // seconds
   */
  uploadRateWindowSeconds: number;
  /** Longest AOPP message, in characters (the AOPP limit). */
  maxMessageLength: number;
  /** `AOPD_BITCOIN_NETWORK`: the network Bitcoin addresses must belong to. @default "mainnet" */
  bitcoinNetwork: "mainnet" | "testnet" | "regtest";
  /**
   * `AOPD_XPUB_MAX_INDEX`: the highest receive/change index searched when an address must derive
   * from an xpub. Each index costs about half a millisecond of CPU per chain and address form, and
   * a caller can ask for a full search, so the default stays small. @default 100
   */
  xpubMaxIndex: number;
  /** `AOPD_XPUB_WORKERS`: threads that search xpubs, off the request thread. At least 1. @default 1 */
  xpubWorkers: number;
  /** `AOPD_XPUB_MAX_QUEUED`: xpub searches that may wait for a thread; more are answered 503. @default 64 */
  xpubMaxQueued: number;
  /** `AOPD_EXPIRY_INTERVAL_SECONDS`: how often pending proofs past their due time are expired (0: never). @default 10 */
  expiryIntervalSeconds: number;
  /**
   * `AOPD_MAX_RESULT_ROWS`: the most proofs one `proofs` call may return. Unset in development,
   * where the spec's default limit returns every match; 100_000 in production, so that one call
   * cannot hold an unbounded result in memory. `0` means unlimited.
   */
  maxResultRows: number | undefined;
  /**
   * `AOPD_MAX_EXPORT_ROWS`: the most proofs one `proofsAsXlsx` (or `proofAsXlsx`) export may hold;
   * a filter that matches more is refused with LIMIT_EXCEEDED before any export work. The whole
   * file travels base64-encoded in one response, so this also bounds the response size (about
   * 21 MiB of XLSX, 30 MB of base64, per 100,000 demo proofs; docs/xlsx-export.md has the memory
   * arithmetic behind the default). At least 1. @default 100_000
   */
  maxExportRows: number;
  /**
   * `AOPD_MAX_DOWNLOAD_ROWS`: the most proofs one download (`POST /exports/proofs.xlsx`) may hold.
   * A download streams, so memory does not grow with it; the cap bounds how long one export holds
   * a database connection and an export slot. At least 1. @default 10_000_000
   */
  maxDownloadRows: number;
  /**
   * `AOPD_EVENT_RETENTION_DAYS`: how long the proof event log keeps events (the oldest cursor
   * `aopdProofs(after:)` and `proofEvents` accept); older ones are pruned in the background. At
   * least 1. @default 30
   */
  eventRetentionDays: number;
  /**
   * `AOPD_FOUR_EYES_KINDS` (comma-separated: `media`, `satoshi`): the proof kinds whose decisions
   * need two officers, one proposing and another confirming (docs/decisions.md). @default none
   */
  fourEyesKinds: readonly FourEyesKind[];
  /**
   * `AOPD_EVENT_PRUNE_INTERVAL_SECONDS`: how often each replica prunes the event log (one at a time
   * across replicas; `0` turns pruning off in this replica). @default 600 // 10 minutes
   */
  eventPruneIntervalSeconds: number;
  /**
   * `AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS`: how long a request mutation's idempotency key answers
   * repeats with the proof its first request created (and refuses another input); expired keys
   * are pruned with the event log. At least 1; at least 86_400 in production, where clients retry
   * for up to a day. @default 86_400 // 24 hours
   */
  idempotencyKeyLifetimeSeconds: number;
  /**
   * `AOPD_MAX_FAILED_ATTEMPTS`: signature submissions a pending proof takes in before it refuses
   * more with `too_many_attempts` (counted in the database, so across replicas). At least 1.
   * @default 20
   */
  maxFailedAttempts: number;
  /**
   * `AOPD_TRUSTED_PROXY_HOPS`: how many proxies in front of aopd append to `x-forwarded-for`; the
   * client address of the public routes' rate limits is the address the outermost trusted one saw.
   * 0 uses the socket address and ignores the header (a client could forge it). @default 0
   */
  trustedProxyHops: number;
  /** `AOPD_RATE_LIMIT_PER_CREDENTIAL`: public submissions (signature, transaction id, file) per minute for one proof's credential (burst as large); 0: no limit. @default 30 */
  rateLimitPerCredential: number;
  /** `AOPD_RATE_LIMIT_PER_CLIENT`: public submissions per minute from one client address (burst as large); 0: no limit. @default 120 */
  rateLimitPerClient: number;
  /**
   * `AOPD_READ_RATE_LIMIT_PER_CREDENTIAL`: public reads (the proof's view, its event stream) per
   * minute for one credential, a budget of their own so that reloading the page never spends the
   * customer's submissions; 0: no limit. @default 120
   */
  readRateLimitPerCredential: number;
  /** `AOPD_READ_RATE_LIMIT_PER_CLIENT`: public reads per minute from one client address; 0: no limit. @default 600 */
  readRateLimitPerClient: number;
  /** `AOPD_RATE_LIMIT_MAX_KEYS`: credentials and addresses tracked per limit (memory bound, about 100 bytes each). @default 100_000 */
  rateLimitMaxKeys: number;
  /** `AOPD_MAX_EVENT_STREAMS_PER_CREDENTIAL`: open portal event streams of one credential. @default 4 */
  maxEventStreamsPerCredential: number;
  /** `AOPD_MAX_EVENT_STREAMS`: open portal event streams of this replica. @default 1_000 */
  maxEventStreams: number;
  /** Comment line sent on an idle event stream so that proxies keep it open. @default 25 // seconds */
  eventStreamHeartbeatSeconds: number;
  /**
   * `AOPD_MAX_COST`: the most rows one operation may ask for across its list fields and aliases
   * (see graphql-execution's operation-cost.ts); as the gateway's `GRAPHQL_MAX_COST`. @default 200_000
   */
  maxCost: number;
  /** `AOPD_MAX_CONCURRENT_EXPORTS`: exports built at once by this process. At least 1. @default 2 */
  maxConcurrentExports: number;
  /** `AOPD_MAX_CONCURRENT_EXPORTS_PER_CALLER`: exports one caller (token subject) runs at once. At least 1. @default 1 */
  maxConcurrentExportsPerCaller: number;
  /** `AOPD_LANG_FILE`, `AOPD_THEME_FILE`, `AOPD_LOGO_FILE`: portal resources; defaults ship in `portal/`. */
  langFile: URL | string;
  /**
   * `AOPD_PORTAL_REDIRECT_ORIGINS`: comma-separated origins (`https://vasp.example`) the portal may
   * send a customer back to after success (`?redirect=`); others are ignored. @default none
   */
  portalRedirectOrigins: string[];
  /**
   * `AOPD_PORTAL_CONTACT`: an e-mail address or https URL the portal names when a link has expired,
   * its proof is finished or the link is not valid, so the customer knows whom to ask. @default none
   */
  portalContact: PortalContact | null;
  /**
   * `AOPD_PORTAL_FRAME_ANCESTORS`: space-separated origins that may show the portal in an iframe
   * (CSP `frame-ancestors`). @default "'none'" // nowhere
   */
  portalFrameAncestors: string;
  themeFile: URL | string;
  logoFile: URL | string;
  assets: AssetRegistry;
  /**
   * `AOPD_CHAIN_<NETWORK>_URL`, `AOPD_CHAIN_<NETWORK>_CONFIRMATIONS` and the watcher's
   * `AOPD_CHAIN_*` settings (see chain/chain-checks-config.ts): the networks whose Satoshi proofs
   * are checked on chain. @default none // every proof waits for an officer
   */
  chain: ChainChecksConfig;
  /**
   * `AOPD_SCREENING_POLICY` (`flag` or `refuse`) and the optional commercial provider
   * (`AOPD_SCREENING_PROVIDER_URL`, `_KEY`, `_NAME`, ...; see screening/screening-config.ts).
   * @default flag, no provider
   */
  screening: ScreeningConfig;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer; got ${JSON.stringify(raw)}.`);
  return value;
}

function bitcoinNetworkFrom(value: string | undefined): AopdConfig["bitcoinNetwork"] {
  if (value === undefined || value === "") return "mainnet";
  if (value === "mainnet" || value === "testnet" || value === "regtest") return value;
  throw new Error(`AOPD_BITCOIN_NETWORK must be mainnet, testnet or regtest; got ${JSON.stringify(value)}.`);
}

/** A list of origins (`scheme://host[:port]`, nothing else), as a browser compares them. */
function originsFrom(name: string, value: string | undefined, separator: string): string[] {
  if (value === undefined || value.trim() === "") return [];
  return value.split(separator).map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin === "null" || origin !== entry.replace(/\/$/, "")) {
      throw new Error(`${name} must list origins such as https://vasp.example (scheme, host and port only); got ${JSON.stringify(entry)}.`);
    }
    return origin;
  });
}

/** The proof kinds people decide, and so the ones four eyes can apply to. */
export type FourEyesKind = "media" | "satoshi";
const fourEyesKindNames: readonly FourEyesKind[] = ["media", "satoshi"];

function fourEyesKindsFrom(value: string | undefined): FourEyesKind[] {
  const kinds = (value ?? "").split(",").map((kind) => kind.trim()).filter((kind) => kind !== "");
  for (const kind of kinds) {
    if (!(fourEyesKindNames as readonly string[]).includes(kind)) {
      throw new Error(`AOPD_FOUR_EYES_KINDS names ${JSON.stringify(kind)}; allowed: ${fourEyesKindNames.join(", ")} (comma-separated), or empty for none.`);
    }
  }
  return [...new Set(kinds as FourEyesKind[])];
}

export function aopdConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AopdConfig {
  const production = env.NODE_ENV === "production";
  const assets = AssetRegistry.load();
  const satoshiBaseAmounts = env.AOPD_SATOSHI_BASE_AMOUNTS ? (JSON.parse(env.AOPD_SATOSHI_BASE_AMOUNTS) as Record<string, string>) : defaultSatoshiBaseAmounts(assets);
  for (const [code, amount] of Object.entries(satoshiBaseAmounts)) {
    if (!assets.has(code)) throw new Error(`AOPD_SATOSHI_BASE_AMOUNTS names an unknown asset ${code}.`);
    if (!/^[1-9][0-9]*$/.test(String(amount))) throw new Error(`AOPD_SATOSHI_BASE_AMOUNTS: the amount of ${code} must be a positive integer string.`);
  }
  const maxResultRows = integer(env, "AOPD_MAX_RESULT_ROWS", production ? 100_000 : 0);
  const maxExportRows = integer(env, "AOPD_MAX_EXPORT_ROWS", 100_000);
  if (maxExportRows < 1) throw new Error("AOPD_MAX_EXPORT_ROWS must be at least 1.");
  const maxDownloadRows = integer(env, "AOPD_MAX_DOWNLOAD_ROWS", 10_000_000);
  if (maxDownloadRows < 1) throw new Error("AOPD_MAX_DOWNLOAD_ROWS must be at least 1.");
  const eventRetentionDays = integer(env, "AOPD_EVENT_RETENTION_DAYS", 30);
  if (eventRetentionDays < 1) throw new Error("AOPD_EVENT_RETENTION_DAYS must be at least 1.");
  const maxFailedAttempts = integer(env, "AOPD_MAX_FAILED_ATTEMPTS", 20);
  if (maxFailedAttempts < 1) throw new Error("AOPD_MAX_FAILED_ATTEMPTS must be at least 1.");
  const idempotencyKeyLifetimeSeconds = integer(env, "AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS", 86_400);
  if (idempotencyKeyLifetimeSeconds < 1) throw new Error("AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS must be at least 1.");
  if (production && idempotencyKeyLifetimeSeconds < 86_400) {
    throw new Error(`AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS must be at least 86400 (24 hours) in production, where clients retry for up to a day; got ${idempotencyKeyLifetimeSeconds}.`);
  }
  const portal = (file: string) => new URL(`../portal/${file}`, import.meta.url);
  const database = databaseTimeoutsFromEnv(env);
  const uploadIdleSeconds = Math.max(1, integer(env, "AOPD_UPLOAD_IDLE_SECONDS", 30));
  if (database.idleInTransactionTimeoutMs <= uploadIdleSeconds * 1_000) {
    throw new Error(
      `AOPD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS (${database.idleInTransactionTimeoutMs}) must exceed AOPD_UPLOAD_IDLE_SECONDS (${uploadIdleSeconds} s): an upload's transaction waits that long between chunks.`,
    );
  }
  return {
    port: integer(env, "AOPD_PORT", 4001),
    host: env.AOPD_HOST ?? "127.0.0.1",
    production,
    recordRetentionYears: recordRetentionYearsFromEnv(env, production),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.AOPD_DATA_DIR ?? ".data/aopd",
    database,
    portalUrl: env.AOPD_PORTAL_URL ?? "http://localhost:4000/portal",
    callbackBaseUrl: env.AOPD_CALLBACK_BASE_URL ?? "http://localhost:4000/aopp/callback",
    signatureProofLifetimeSeconds: integer(env, "AOPD_SIGNATURE_PROOF_LIFETIME_SECONDS", 604_800),
    satoshiProofLifetimeSeconds: integer(env, "AOPD_SATOSHI_PROOF_LIFETIME_SECONDS", 172_800),
    satoshiBaseAmounts,
    mediaProofLifetimeSeconds: integer(env, "AOPD_MEDIA_PROOF_LIFETIME_SECONDS", 604_800),
    mediaMaxImageBytes: Math.max(1, integer(env, "AOPD_MEDIA_MAX_IMAGE_BYTES", 10_000_000)),
    mediaMaxVideoBytes: Math.max(1, integer(env, "AOPD_MEDIA_MAX_VIDEO_BYTES", 100_000_000)),
    mediaMaxImagePixels: Math.max(1, integer(env, "AOPD_MEDIA_MAX_IMAGE_PIXELS", 50_000_000)),
    mediaUrl: env.AOPD_MEDIA_URL ?? "http://localhost:4000/aopd/media",
    maxConcurrentUploads: Math.max(1, integer(env, "AOPD_MAX_CONCURRENT_UPLOADS", 4)),
    uploadIdleSeconds,
    maxUploadsPerClient: Math.max(1, integer(env, "AOPD_MAX_UPLOADS_PER_CLIENT", 2)),
    uploadMinBytesPerSecond: integer(env, "AOPD_UPLOAD_MIN_BYTES_PER_SECOND", 10_000),
    uploadRateWindowSeconds: Math.max(1, integer(env, "AOPD_UPLOAD_RATE_WINDOW_SECONDS", 20)),
    maxMessageLength: 1024,
    bitcoinNetwork: bitcoinNetworkFrom(env.AOPD_BITCOIN_NETWORK),
    xpubMaxIndex: integer(env, "AOPD_XPUB_MAX_INDEX", 100),
    xpubWorkers: Math.max(1, integer(env, "AOPD_XPUB_WORKERS", 1)),
    xpubMaxQueued: integer(env, "AOPD_XPUB_MAX_QUEUED", 64),
    expiryIntervalSeconds: integer(env, "AOPD_EXPIRY_INTERVAL_SECONDS", 10),
    maxResultRows: maxResultRows === 0 ? undefined : maxResultRows,
    maxExportRows,
    maxDownloadRows,
    eventRetentionDays,
    eventPruneIntervalSeconds: integer(env, "AOPD_EVENT_PRUNE_INTERVAL_SECONDS", 600),
    idempotencyKeyLifetimeSeconds,
    fourEyesKinds: fourEyesKindsFrom(env.AOPD_FOUR_EYES_KINDS),
    receipts: receiptConfigFromEnv(env),
    maxFailedAttempts,
    trustedProxyHops: integer(env, "AOPD_TRUSTED_PROXY_HOPS", 0),
    rateLimitPerCredential: integer(env, "AOPD_RATE_LIMIT_PER_CREDENTIAL", 30),
    rateLimitPerClient: integer(env, "AOPD_RATE_LIMIT_PER_CLIENT", 120),
    readRateLimitPerCredential: integer(env, "AOPD_READ_RATE_LIMIT_PER_CREDENTIAL", 120),
    readRateLimitPerClient: integer(env, "AOPD_READ_RATE_LIMIT_PER_CLIENT", 600),
    rateLimitMaxKeys: Math.max(1, integer(env, "AOPD_RATE_LIMIT_MAX_KEYS", 100_000)),
    maxEventStreamsPerCredential: integer(env, "AOPD_MAX_EVENT_STREAMS_PER_CREDENTIAL", 4),
    maxEventStreams: integer(env, "AOPD_MAX_EVENT_STREAMS", 1_000),
    eventStreamHeartbeatSeconds: 25,
    maxCost: integer(env, "AOPD_MAX_COST", 200_000),
    maxConcurrentExports: Math.max(1, integer(env, "AOPD_MAX_CONCURRENT_EXPORTS", 2)),
    maxConcurrentExportsPerCaller: Math.max(1, integer(env, "AOPD_MAX_CONCURRENT_EXPORTS_PER_CALLER", 1)),
    langFile: env.AOPD_LANG_FILE ?? portal("lang.json"),
    portalRedirectOrigins: originsFrom("AOPD_PORTAL_REDIRECT_ORIGINS", env.AOPD_PORTAL_REDIRECT_ORIGINS, ","),
    portalContact: portalContactFrom(env.AOPD_PORTAL_CONTACT, production),
    portalFrameAncestors: env.AOPD_PORTAL_FRAME_ANCESTORS ? originsFrom("AOPD_PORTAL_FRAME_ANCESTORS", env.AOPD_PORTAL_FRAME_ANCESTORS, " ").join(" ") : "'none'",
    themeFile: env.AOPD_THEME_FILE ?? portal("theme.json"),
    logoFile: env.AOPD_LOGO_FILE ?? portal("logo.svg"),
    assets,
    chain: chainChecksConfigFromEnv(env, (name, fallback) => integer(env, name, fallback)),
    screening: screeningConfigFromEnv(env, production, (name, fallback) => integer(env, name, fallback)),
  };
}
