import { AssetRegistry } from "@compliance-graph/dti-assets";
import type { AopdConfig } from "./aopd-config.js";
import { recordRetentionYearsFromEnv } from "./audit/record-retention.js";
import { chainChecksConfigFromEnv } from "./chain/chain-checks-config.js";
import type { ProofKind } from "./database/database-schema.js";
import { databaseTimeoutsFromEnv } from "./database/database-timeouts.js";
import { officerAssessedKinds } from "./kinds/proof-kinds.js";
import { defaultSatoshiBaseAmounts } from "./kinds/satoshi/default-satoshi-base-amounts.js";
import { portalContactFrom } from "./portal/portal-contact-from.js";
import { receiptConfigFromEnv } from "./receipts/receipt-config.js";
import { auditLogConfigFromEnv } from "./audit/audit-log-config.js";
import { screeningConfigFromEnv } from "./screening/screening-config.js";

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
  return value
    .split(separator)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
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

/** Four eyes applies to decisions of people: the kinds an officer decides proofs of (the registry says which; a signature proof only when left for review). */
function fourEyesKindsFrom(value: string | undefined): ProofKind[] {
  const kinds = (value ?? "")
    .split(",")
    .map((kind) => kind.trim())
    .filter((kind) => kind !== "");
  for (const kind of kinds) {
    if (!(officerAssessedKinds as readonly string[]).includes(kind)) {
      throw new Error(
        `AOPD_FOUR_EYES_KINDS names ${JSON.stringify(kind)}; allowed: ${[...officerAssessedKinds].sort().join(", ")} (comma-separated), or empty for none.`,
      );
    }
  }
  return [...new Set(kinds as ProofKind[])];
}

export function aopdConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AopdConfig {
  const production = env.NODE_ENV === "production";
  const assets = AssetRegistry.load();
  const satoshiBaseAmounts = env.AOPD_SATOSHI_BASE_AMOUNTS
    ? (JSON.parse(env.AOPD_SATOSHI_BASE_AMOUNTS) as Record<string, string>)
    : defaultSatoshiBaseAmounts(assets);
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
    throw new Error(
      `AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS must be at least 86400 (24 hours) in production, where clients retry for up to a day; got ${idempotencyKeyLifetimeSeconds}.`,
    );
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
    mediaViewWindowSeconds: Math.max(0, integer(env, "AOPD_MEDIA_VIEW_WINDOW_SECONDS", 1_800)),
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
    fourEyesServiceClients: [
      ...new Set(
        (env.AOPD_FOUR_EYES_SERVICE_CLIENTS ?? "")
          .split(",")
          .map((client) => client.trim())
          .filter((client) => client !== ""),
      ),
    ],
    receipts: receiptConfigFromEnv(env),
    auditLog: auditLogConfigFromEnv(env),
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
    portalFrameAncestors: env.AOPD_PORTAL_FRAME_ANCESTORS
      ? originsFrom("AOPD_PORTAL_FRAME_ANCESTORS", env.AOPD_PORTAL_FRAME_ANCESTORS, " ").join(" ")
      : "'none'",
    themeFile: env.AOPD_THEME_FILE ?? portal("theme.json"),
    logoFile: env.AOPD_LOGO_FILE ?? portal("logo.svg"),
    assets,
    chain: chainChecksConfigFromEnv(env, (name, fallback) => integer(env, name, fallback)),
    screening: screeningConfigFromEnv(env, production, (name, fallback) => integer(env, name, fallback)),
  };
}
