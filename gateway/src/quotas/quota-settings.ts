import { readFileSync } from "node:fs";

/**
 * The four quotas of one window. A quota that is absent or 0 does not limit (a client's 0 lifts a default).
 * Requests count every GraphQL request over HTTP and every subscription started over WebSocket;
 * cost counts each operation's cost as `GRAPHQL_MAX_COST` measures it (the rows it can ask for).
 */
export interface QuotaLimits {
  /** Requests of all the client's callers together, per window. */
  clientRequests?: number;
  /** Requests of one subject (`sub`) through this client, per window. */
  subjectRequests?: number;
  /** Operation cost of all the client's callers together, per window. */
  clientCost?: number;
  /** Operation cost of one subject through this client, per window. */
  subjectCost?: number;
  /** The window's length. @default 60 // seconds */
  windowSeconds?: number;
}

export const quotaNames = ["clientRequests", "subjectRequests", "clientCost", "subjectCost"] as const;
export type QuotaName = (typeof quotaNames)[number];

export interface QuotaSettings {
  /** `GATEWAY_QUOTA_*`: the quotas of every client without an entry of its own. */
  defaults: QuotaLimits;
  /** `GATEWAY_QUOTA_CLIENTS` or `GATEWAY_QUOTA_CLIENTS_FILE`: per client (`azp`), the quotas that replace the defaults' (unnamed ones are the defaults'). */
  clients: Record<string, QuotaLimits>;
  /**
   * `GATEWAY_QUOTA_DATABASE_URL`: PostgreSQL where the replicas add up their counts, so a quota holds
   * in total (docs/quotas.md). Without it each replica counts alone and allows `1/replicas` of each quota.
   */
  databaseUrl?: string;
  /** `GATEWAY_QUOTA_REPLICAS`: the gateway replicas sharing the quotas (without a database, or while it is away). @default 1 */
  replicas: number;
  /** `GATEWAY_QUOTA_SYNC_INTERVAL_MS`: how often a replica sends its counts to the database and reads the others'. @default 250 // milliseconds */
  syncIntervalMs: number;
}

export const defaultQuotaSettings: QuotaSettings = { defaults: {}, clients: {}, replicas: 1, syncIntervalMs: 250 };

const limitFields = new Set<string>([...quotaNames, "windowSeconds"]);

function positiveInteger(value: unknown, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 0)
    throw new Error(`${name} must be a non-negative integer (0: no limit); got ${JSON.stringify(value)}.`);
  return number;
}

/** One client's entry (or the defaults), every field checked: a typo is an error naming it, never a silently missing limit. */
export function parseQuotaLimits(value: unknown, where: string): QuotaLimits {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${where} must be an object with some of ${[...limitFields].join(", ")}.`);
  const limits: QuotaLimits = {};
  for (const [field, raw] of Object.entries(value)) {
    if (!limitFields.has(field)) throw new Error(`${where}.${field} is not a quota; allowed: ${[...limitFields].join(", ")}.`);
    const parsed = positiveInteger(raw, `${where}.${field}`);
    if (parsed !== undefined) limits[field as keyof QuotaLimits] = parsed;
  }
  return limits;
}

function parseClients(text: string, source: string): Record<string, QuotaLimits> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${source} must be JSON: an object from client id (azp) to its quotas, e.g. {"partner-app":{"clientRequests":600}}.`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`${source} must be an object from client id (azp) to its quotas.`);
  return Object.fromEntries(Object.entries(parsed).map(([client, limits]) => [client, parseQuotaLimits(limits, `${source}.${client}`)]));
}

/**
 * Production refuses a sharing database reached without TLS: the counters decide whom the gateway
 * refuses, so whoever can rewrite them on the path can lock a client out or lift its limits, and
 * the database password would cross the network in the clear. A Unix socket never leaves the host.
 */
function refuseWeakDatabaseUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("GATEWAY_QUOTA_DATABASE_URL must be a postgres:// URL.");
  }
  const sslmode = parsed.searchParams.get("sslmode");
  const overSocket = parsed.hostname === "" || (parsed.searchParams.get("host") ?? "").startsWith("/");
  if (!overSocket && sslmode !== "verify-full" && sslmode !== "verify-ca") {
    throw new Error(
      "GATEWAY_QUOTA_DATABASE_URL must use TLS with a verified server in production: add sslmode=verify-full (or verify-ca), or connect over a Unix socket.",
    );
  }
}

/** `GATEWAY_QUOTA_*` (docs/operations.md, "Quotas"); `undefined` when no quota is set, so the gateway does no quota work at all. */
export function quotaSettingsFromEnv(env: NodeJS.ProcessEnv, production: boolean): QuotaSettings | undefined {
  const defaults = parseQuotaLimits(
    {
      clientRequests: env.GATEWAY_QUOTA_CLIENT_REQUESTS,
      subjectRequests: env.GATEWAY_QUOTA_SUBJECT_REQUESTS,
      clientCost: env.GATEWAY_QUOTA_CLIENT_COST,
      subjectCost: env.GATEWAY_QUOTA_SUBJECT_COST,
      windowSeconds: env.GATEWAY_QUOTA_WINDOW_SECONDS,
    },
    "GATEWAY_QUOTA",
  );
  if (env.GATEWAY_QUOTA_CLIENTS && env.GATEWAY_QUOTA_CLIENTS_FILE) throw new Error("Set GATEWAY_QUOTA_CLIENTS or GATEWAY_QUOTA_CLIENTS_FILE, not both.");
  const clients = env.GATEWAY_QUOTA_CLIENTS
    ? parseClients(env.GATEWAY_QUOTA_CLIENTS, "GATEWAY_QUOTA_CLIENTS")
    : env.GATEWAY_QUOTA_CLIENTS_FILE
      ? parseClients(readFileSync(env.GATEWAY_QUOTA_CLIENTS_FILE, "utf8"), env.GATEWAY_QUOTA_CLIENTS_FILE)
      : {};
  const anyQuota = quotaNames.some((name) => (defaults[name] ?? 0) > 0) || Object.keys(clients).length > 0;
  if (!anyQuota) return undefined;
  const databaseUrl = env.GATEWAY_QUOTA_DATABASE_URL || undefined;
  if (databaseUrl && production) refuseWeakDatabaseUrl(databaseUrl);
  const replicas = positiveInteger(env.GATEWAY_QUOTA_REPLICAS, "GATEWAY_QUOTA_REPLICAS") ?? 1;
  const syncIntervalMs = positiveInteger(env.GATEWAY_QUOTA_SYNC_INTERVAL_MS, "GATEWAY_QUOTA_SYNC_INTERVAL_MS") ?? defaultQuotaSettings.syncIntervalMs;
  return { defaults, clients, replicas, syncIntervalMs, ...(databaseUrl ? { databaseUrl } : {}) };
}
