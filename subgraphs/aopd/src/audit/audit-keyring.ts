import { createHash } from "node:crypto";
import type { AuditLogConfig } from "./audit-log-config.js";

/** One key audit entries are authenticated with: its id (stored with each entry) and its secret. */
export interface AuditKey {
  id: string;
  secret: Buffer;
}

/** The key new entries are authenticated with, and every key an entry of this deployment may name. */
export interface AuditKeyring {
  current: AuditKey;
  byId: ReadonlyMap<string, AuditKey>;
  /** The current key is the development key (derived from a published text): anyone can forge entries under it. */
  development: boolean;
}

/** The id of the development key, which production refuses. */
export const developmentAuditKeyId = "development";

/**
 * The development key: derived from a fixed, published text, so that every process of a
 * development setup (aopd, `npm run verify-audit`) agrees on it without configuration, and so
 * that it protects nothing (production refuses it).
 */
function developmentAuditKey(): AuditKey {
  return { id: developmentAuditKeyId, secret: createHash("sha256").update("compliance-graph aopd development audit key (not secret)").digest() };
}

/**
 * The audit keys from the configuration.
 *
 * Threat: anyone who can INSERT into the trail's table (a database superuser, a leaked
 * application password) writes an entry in any officer's name at any time. The key lives outside
 * the database (configuration, a secret), so only a process that holds it writes entries the
 * sequencer accepts. Production refuses to start without it rather than fall back to the
 * development key, which anyone who reads this file holds.
 */
export function loadAuditKeyring(config: Pick<AuditLogConfig, "key" | "previousKeys">, production: boolean): AuditKeyring {
  if (config.key === undefined) {
    if (production) {
      throw new Error(
        "aopd refuses to start in production without AOPD_AUDIT_KEY: audit entries would be authenticated with the development key, which anyone can read. " +
          "Set it to <key id>:<base64 of at least 32 random bytes>; see docs/audit-transparency.md.",
      );
    }
    const key = developmentAuditKey();
    return { current: key, byId: new Map([[key.id, key]]), development: true };
  }
  const current = parseAuditKey(config.key, "AOPD_AUDIT_KEY");
  if (production && current.id === developmentAuditKeyId)
    throw new Error(`AOPD_AUDIT_KEY: the key id ${developmentAuditKeyId} marks the development key, which production refuses.`);
  const previous = (config.previousKeys ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => parseAuditKey(part, "AOPD_AUDIT_PREVIOUS_KEYS"));
  const byId = new Map<string, AuditKey>();
  for (const key of [...previous, developmentAuditKey(), current]) byId.set(key.id, key);
  // The development key verifies the entries of a development start that later got a real key; production names no development entry.
  if (production) byId.delete(developmentAuditKeyId);
  byId.set(current.id, current);
  return { current, byId, development: false };
}

function parseAuditKey(text: string, where: string): AuditKey {
  const match = /^([A-Za-z0-9._-]{1,64}):([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  const secret = match ? Buffer.from(match[2]!, "base64") : undefined;
  // The key's own text never goes into an error: it is a secret.
  if (!match || !secret || secret.length < 32) {
    throw new Error(
      `${where} must be <key id>:<base64 secret>, the id of 1 to 64 letters, digits, '.', '_' or '-', the secret at least 32 bytes (openssl rand -base64 32).`,
    );
  }
  return { id: match[1]!, secret };
}

let processKeyring: AuditKeyring = loadAuditKeyring({ key: undefined, previousKeys: undefined }, false);

/**
 * The keyring `appendAuditEntries` and the sequencer use in this process, set once at start by
 * `startAopd` (and by the commands) from the configuration; the development keyring until then.
 * One per process: appending is called from every domain path with a database handle only, and a
 * process serves one deployment.
 */
export function auditKeyring(): AuditKeyring {
  return processKeyring;
}

export function useAuditKeyring(keyring: AuditKeyring): void {
  processKeyring = keyring;
}
