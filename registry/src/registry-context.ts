import type { Kysely } from "kysely";
import type { RegistryDatabase } from "./database/registry-database-schema.js";
import type { RegistrySigningKey } from "./signing/registry-signing-key.js";

/** What the registry's operations work with. */
export interface RegistryContext {
  db: Kysely<RegistryDatabase>;
  key: RegistrySigningKey;
  /** How far back a breaking change is looked up in recorded usage: `GRAPH_USAGE_RETENTION_DAYS`. @default 30 // days */
  usageWindowDays: number;
}

/** Who asks, from the internal token: the subject and the client (`azp`) are recorded with each version. */
export interface Actor {
  subject: string;
  client: string;
  roles: readonly string[];
}
