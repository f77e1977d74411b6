import type { ColumnType } from "kysely";

/** A subgraph as served now: one row per subgraph of the current version. */
export interface SubgraphTable {
  name: string;
  url: string;
  /** The subgraph's SDL as published. */
  schema: string;
  /** Its HTTP routes (`subgraph-routes.yaml` entries, each with `subgraph`), as JSON text. */
  routes: string;
  /** The clients (`azp`) that may publish it: the first publisher's, changed by `schema:admin`. */
  owners: string[];
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** What a version did. */
export type VersionAction = "publish" | "rollback" | "remove";

/** One subgraph as a version holds it, to roll back to. */
export interface SubgraphSnapshot {
  name: string;
  url: string;
  schema: string;
  routes: unknown[];
}

/** The history: append-only (a trigger refuses UPDATE and DELETE), one row per version. */
export interface VersionTable {
  version: number;
  subgraph: string;
  action: VersionAction;
  actor_subject: string;
  actor_client: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** Why it was forced past a refusal; null when it was not. */
  reason: string | null;
  /** The classified changes and the usage they touched (`CheckReport` without the candidate), as JSON. */
  diff: ColumnType<unknown, string, never>;
  supergraph_sha256: string;
  supergraph: string;
  routes: string;
  /** Every subgraph of this version. */
  subgraphs: ColumnType<SubgraphSnapshot[], string, never>;
  /** The compact JWS over this version (see `signSupergraph`), made at publish and never again. */
  signature: string;
}

/** A change of a subgraph's owners by `schema:admin`: append-only (a trigger refuses UPDATE and DELETE). */
export interface OwnerChangeTable {
  id: ColumnType<string, never, never>;
  subgraph: string;
  actor_subject: string;
  actor_client: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  owners_before: string[];
  owners_after: string[];
}

/** Requests per hour, operation and client, as the gateways reported them. */
export interface UsageCountTable {
  hour: Date;
  operation_hash: string;
  client: string;
  count: ColumnType<string, number, number>;
}

/** The schema coordinates each recorded operation selects. */
export interface UsageOperationTable {
  operation_hash: string;
  coordinates: string[];
  last_seen: Date;
}

export interface RegistryDatabase {
  registry_subgraph: SubgraphTable;
  registry_version: VersionTable;
  registry_owner_change: OwnerChangeTable;
  registry_usage_count: UsageCountTable;
  registry_usage_operation: UsageOperationTable;
}
