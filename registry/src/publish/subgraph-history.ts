import type { Kysely } from "kysely";
import type { RegistryDatabase } from "../database/registry-database-schema.js";
import { RegistryError } from "../registry-error.js";

export interface HistoryEntry {
  version: number;
  subgraph: string;
  action: string;
  subject: string;
  client: string;
  at: string;
  reason: string | null;
  supergraphSha256: string;
  diff: unknown;
}

/** What `GET /registry/subgraphs/history` asks for: `?name=` (one subgraph) and `?limit=` (1 to 1000). @default limit 50 */
export function historyQuery(query: URLSearchParams): { name: string | null; limit: number } {
  const limitText = query.get("limit") ?? "50";
  if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1_000)
    throw new RegistryError("invalid_input", "limit must be a whole number from 1 to 1000.");
  return { name: query.get("name"), limit: Number(limitText) };
}

/** The versions, newest first; `name` keeps those of one subgraph. */
export async function subgraphHistory(db: Kysely<RegistryDatabase>, query: URLSearchParams): Promise<HistoryEntry[]> {
  const { name, limit } = historyQuery(query);
  let select = db
    .selectFrom("registry_version")
    .select(["version", "subgraph", "action", "actor_subject", "actor_client", "created_at", "reason", "supergraph_sha256", "diff"])
    .orderBy("version", "desc")
    .limit(limit);
  // A rollback names every subgraph it served (comma-separated): it belongs to each one's history.
  if (name) select = select.where((eb) => eb.or([eb("subgraph", "=", name), eb("action", "=", "rollback")]));
  const rows = await select.execute();
  return rows.map((row) => ({
    version: row.version,
    subgraph: row.subgraph,
    action: row.action,
    subject: row.actor_subject,
    client: row.actor_client,
    at: new Date(row.created_at).toISOString(),
    reason: row.reason,
    supergraphSha256: row.supergraph_sha256,
    diff: row.diff,
  }));
}
