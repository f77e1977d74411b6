import { sql, type Kysely } from "kysely";
import type { RegistryDatabase } from "../database/registry-database-schema.js";
import type { UsageReport } from "./usage-report.js";

/** A coordinate used by recorded operations: how many requests and which clients, within the window. */
export interface UsageHit {
  coordinate: string;
  requests: number;
  clients: string[];
}

/**
 * Adds reports: counts summed per (hour, operation, client), so a gateway sends each count once,
 * as a delta; an operation's coordinates kept once. Rows of one report land in one statement each,
 * however many gateways report at once (`ON CONFLICT` adds rather than races).
 */
export async function recordUsage(db: Kysely<RegistryDatabase>, reports: readonly UsageReport[]): Promise<void> {
  if (reports.length === 0) return;
  // One row per key: PostgreSQL refuses an upsert that touches the same row twice in one statement.
  const counts = new Map<string, { hour: Date; operation_hash: string; client: string; count: number }>();
  const operations = new Map<string, { operation_hash: string; coordinates: string[]; last_seen: Date }>();
  for (const report of reports) {
    const key = `${report.hour.toISOString()}\n${report.operationHash}\n${report.client}`;
    const row = counts.get(key);
    if (row) row.count += report.count;
    else counts.set(key, { hour: report.hour, operation_hash: report.operationHash, client: report.client, count: report.count });
    const seen = operations.get(report.operationHash);
    if (!seen || seen.last_seen < report.hour)
      operations.set(report.operationHash, { operation_hash: report.operationHash, coordinates: report.coordinates, last_seen: report.hour });
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("registry_usage_operation")
      .values([...operations.values()])
      .onConflict((conflict) =>
        conflict.column("operation_hash").doUpdateSet({
          coordinates: sql`excluded.coordinates`,
          last_seen: sql`greatest(registry_usage_operation.last_seen, excluded.last_seen)`,
        }),
      )
      .execute();
    await trx
      .insertInto("registry_usage_count")
      .values([...counts.values()])
      .onConflict((conflict) => conflict.columns(["operation_hash", "hour", "client"]).doUpdateSet({ count: sql`registry_usage_count.count + excluded.count` }))
      .execute();
  });
}

/**
 * The recorded use of some coordinates since a moment: per coordinate, the requests and the
 * clients of every operation that selects it. The GIN index on the operations' coordinates finds
 * them without reading every operation.
 */
export async function usageOf(db: Kysely<RegistryDatabase>, coordinates: readonly string[], since: Date): Promise<UsageHit[]> {
  if (coordinates.length === 0) return [];
  const wanted = [...new Set(coordinates)];
  const { rows } = await sql<{ coordinate: string; requests: string; clients: string[] }>`
    SELECT used.coordinate, sum(usage.count)::text AS requests, array_agg(DISTINCT usage.client ORDER BY usage.client) AS clients
    FROM registry_usage_operation operation
    CROSS JOIN LATERAL unnest(operation.coordinates) AS used(coordinate)
    JOIN registry_usage_count usage ON usage.operation_hash = operation.operation_hash AND usage.hour >= ${since}
    WHERE operation.coordinates && ${sql.val(wanted)}::text[] AND used.coordinate = ANY(${sql.val(wanted)}::text[])
    GROUP BY used.coordinate
    ORDER BY used.coordinate`.execute(db);
  return rows.map((row) => ({ coordinate: row.coordinate, requests: Number(row.requests), clients: row.clients }));
}

/** Deletes counts older than the retention, and operations no count refers to any more. */
export async function pruneUsage(db: Kysely<RegistryDatabase>, retentionDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const deleted = await db.deleteFrom("registry_usage_count").where("hour", "<", before).executeTakeFirst();
  await db.deleteFrom("registry_usage_operation").where("last_seen", "<", before).execute();
  return Number(deleted.numDeletedRows);
}
