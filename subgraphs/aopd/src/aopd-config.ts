import type { AssetRegistry } from "@compliance-graph/dti-assets";
import type { PortalContact } from "@compliance-graph/portal-contract";
import type { ChainChecksConfig } from "./chain/chain-checks-config.js";
import type { ProofKind } from "./database/database-schema.js";
import type { DatabaseTimeouts } from "./database/database-timeouts.js";
import type { ReceiptConfig } from "./receipts/receipt-config.js";
import type { AuditLogConfig } from "./audit/audit-log-config.js";
import type { ScreeningConfig } from "./screening/screening-config.js";

/**
 * aopd's configuration: every setting, read once at start (`aopdConfigFromEnv`, or a test's
 * overrides). A type only, so that the parts that read it stand below the reader, which knows the
 * kinds and every part's own settings.
 */
export interface AopdConfig {
  /** Proof receipts: keys, issuer, validity (receipts/receipt-config.ts). */
  receipts: ReceiptConfig;
  /** The audit trail's authentication key, checkpoint key and witnesses (audit/audit-log-config.ts). */
  auditLog: AuditLogConfig;
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
  /**
   * `AOPD_MEDIA_VIEW_WINDOW_SECONDS`: how long one officer's view of one media file stands for every
   * later view of the same file by the same officer; within it, the screen showing the file again
   * (a reload, a live update, going back to the proof) is not recorded again (docs/audit-trail.md,
   * "Views and downloads"). 0 records every view. Downloads are always recorded. @default 1800 // 30 minutes
   */
  mediaViewWindowSeconds: number;
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
  fourEyesKinds: readonly ProofKind[];
  /**
   * `AOPD_FOUR_EYES_SERVICE_CLIENTS` (comma-separated OAuth client ids): service clients whose
   * tokens without a user may propose, confirm or reject under four eyes, as an officer would. Off
   * by default: two officers are two people, and a client's secret is no person (docs/decisions.md).
   * @default none
   */
  fourEyesServiceClients: readonly string[];
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
