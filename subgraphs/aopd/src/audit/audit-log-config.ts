/**
 * The settings of the audit trail's authentication and transparency log
 * (docs/audit-transparency.md). Read from the environment by `aopdConfigFromEnv`; the keys are
 * parsed at start (`loadAuditKeyring`, `loadCheckpointSigner`), which production refuses to do
 * without them.
 */
export interface AuditLogConfig {
  /**
   * `AOPD_AUDIT_KEY`: the key every audit entry is authenticated with at append (HMAC-SHA-256),
   * as `<key id>:<base64 of at least 32 random bytes>`. The key id is stored with each entry, so a
   * rotation adds a new key and keeps the old one in `previousKeys`. Unset: a development key
   * derived from a fixed text, which production refuses. @default unset
   */
  key: string | undefined;
  /** `AOPD_AUDIT_PREVIOUS_KEYS`: keys that authenticated entries before the current one, same form, separated by commas. @default none */
  previousKeys: string | undefined;
  /**
   * `AOPD_CHECKPOINT_KEY`: the Ed25519 key checkpoints are signed with, as a C2SP signed-note
   * private key `PRIVATE+KEY+<name>+<hex key hash>+<base64(0x01 || 32-byte seed)>`; its name is
   * the log's origin. Unset: a development key derived from a fixed text, which production
   * refuses. @default unset
   */
  checkpointKey: string | undefined;
  /** `AOPD_CHECKPOINT_INTERVAL_MS`: the least time between two checkpoints while entries arrive, 100 to 10000. @default 1000 // milliseconds */
  checkpointIntervalMs: number;
  /**
   * `AOPD_AUDIT_WITNESS_KEYS`: the witnesses whose cosignatures aopd accepts and publishes, each a
   * C2SP vkey `<name>+<hex key hash>+<base64(0x04 || public key)>`, separated by commas or line
   * breaks. @default none (cosignatures are refused)
   */
  witnessKeys: string | undefined;
}

export function auditLogConfigFromEnv(env: NodeJS.ProcessEnv): AuditLogConfig {
  const text = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const interval = text("AOPD_CHECKPOINT_INTERVAL_MS") ?? "1000";
  if (!/^\d+$/.test(interval) || Number(interval) < 100 || Number(interval) > 10_000) {
    throw new Error(`AOPD_CHECKPOINT_INTERVAL_MS must be a whole number of milliseconds from 100 to 10000; got ${JSON.stringify(interval)}.`);
  }
  return {
    key: text("AOPD_AUDIT_KEY"),
    previousKeys: text("AOPD_AUDIT_PREVIOUS_KEYS"),
    checkpointKey: text("AOPD_CHECKPOINT_KEY"),
    checkpointIntervalMs: Number(interval),
    witnessKeys: text("AOPD_AUDIT_WITNESS_KEYS"),
  };
}
