import { sql, type Transaction } from "kysely";
import type { RegistryDatabase, SubgraphSnapshot, VersionAction } from "../database/registry-database-schema.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { sha256Hex, signSupergraph } from "../signing/sign-supergraph.js";

/**
 * Serializes every change of the registry: one version at a time, so that each is checked against
 * the version it replaces. A transaction-scoped advisory lock, released at commit or rollback.
 */
export async function lockRegistry(trx: Transaction<RegistryDatabase>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('compliance-graph-registry'))`.execute(trx);
}

/** The version served now (the newest), or undefined while nothing is published. */
export async function servedVersion(
  trx: Transaction<RegistryDatabase>,
): Promise<{ version: number; supergraph: string; subgraphs: SubgraphSnapshot[] } | undefined> {
  return trx.selectFrom("registry_version").select(["version", "supergraph", "subgraphs"]).orderBy("version", "desc").limit(1).executeTakeFirst();
}

export interface NewVersion {
  subgraph: string;
  action: VersionAction;
  actor: Actor;
  reason: string | null;
  diff: unknown;
  supergraph: string;
  /** Every subgraph of the new version, in name order. */
  subgraphs: SubgraphSnapshot[];
  /** Owners of subgraphs that have none yet (a first publish, a rollback bringing one back). */
  ownersOfNew: string[];
}

/**
 * Writes a version (under `lockRegistry`): numbered after the newest, signed, appended to the
 * history, and the current subgraphs replaced by its own. Owners stay with their subgraph.
 */
export async function appendVersion(context: RegistryContext, trx: Transaction<RegistryDatabase>, next: NewVersion): Promise<number> {
  const newest = await trx
    .selectFrom("registry_version")
    .select(sql<number>`coalesce(max(version), 0)`.as("version"))
    .executeTakeFirstOrThrow();
  const version = Number(newest.version) + 1;
  const routes = JSON.stringify(next.subgraphs.flatMap((subgraph) => subgraph.routes));
  const signature = await signSupergraph(context.key, version, next.supergraph, routes);
  await trx
    .insertInto("registry_version")
    .values({
      version,
      subgraph: next.subgraph,
      action: next.action,
      actor_subject: next.actor.subject,
      actor_client: next.actor.client,
      reason: next.reason,
      diff: JSON.stringify(next.diff),
      supergraph_sha256: sha256Hex(next.supergraph),
      supergraph: next.supergraph,
      routes,
      subgraphs: JSON.stringify(next.subgraphs),
      signature,
    })
    .execute();
  const names = next.subgraphs.map(({ name }) => name);
  if (names.length > 0) await trx.deleteFrom("registry_subgraph").where("name", "not in", names).execute();
  else await trx.deleteFrom("registry_subgraph").execute();
  for (const subgraph of next.subgraphs) {
    await trx
      .insertInto("registry_subgraph")
      .values({
        name: subgraph.name,
        url: subgraph.url,
        schema: subgraph.schema,
        routes: JSON.stringify(subgraph.routes),
        owners: next.ownersOfNew,
        updated_at: new Date(),
      })
      .onConflict((conflict) =>
        conflict.column("name").doUpdateSet({ url: subgraph.url, schema: subgraph.schema, routes: JSON.stringify(subgraph.routes), updated_at: new Date() }),
      )
      .execute();
  }
  return version;
}
