import type { Kysely } from "kysely";
import type { RegistryDatabase } from "../database/registry-database-schema.js";

/** One change of a subgraph's owners, as `history` shows it. */
export interface OwnerChangeEntry {
  subgraph: string;
  subject: string;
  client: string;
  at: string;
  from: string[];
  to: string[];
}

/** The owner changes, newest first; `name` keeps those of one subgraph. */
export async function ownerHistory(db: Kysely<RegistryDatabase>, name: string | null, limit: number): Promise<OwnerChangeEntry[]> {
  let select = db
    .selectFrom("registry_owner_change")
    .select(["subgraph", "actor_subject", "actor_client", "created_at", "owners_before", "owners_after"])
    .orderBy("id", "desc")
    .limit(limit);
  if (name) select = select.where("subgraph", "=", name);
  const rows = await select.execute();
  return rows.map((row) => ({
    subgraph: row.subgraph,
    subject: row.actor_subject,
    client: row.actor_client,
    at: new Date(row.created_at).toISOString(),
    from: row.owners_before,
    to: row.owners_after,
  }));
}
