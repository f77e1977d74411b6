import type { Kysely } from "kysely";
import type { RegistryDatabase } from "../database/registry-database-schema.js";
import { usageOf } from "../usage/usage-store.js";
import type { CheckReport } from "./check-report.js";
import { classifyChanges } from "./classify-changes.js";
import { apiSchemaOf, composeSubgraphs, type SubgraphSource } from "./compose-subgraphs.js";

export interface CheckInput {
  /** The subgraph checked, for the report. */
  subgraph: string;
  /** Every subgraph as it would be after the change (the candidate in, or the removed one out). */
  next: readonly SubgraphSource[];
  /** The supergraph served now and its version; undefined while nothing is published. */
  served: { version: number; supergraph: string } | undefined;
  usageWindowDays: number;
  now?: Date;
}

/**
 * The check behind `check`, `publish` and `remove`: compose what would be served, classify each
 * change against the API schema served now, and look the breaking ones up in recorded usage.
 * Returns the composed supergraph too, so that a publish serves exactly what was checked.
 */
export async function checkSubgraphs(db: Kysely<RegistryDatabase>, input: CheckInput): Promise<{ report: CheckReport; supergraph: string | undefined }> {
  const report: CheckReport = {
    subgraph: input.subgraph,
    safe: false,
    servedVersion: input.served?.version ?? null,
    compositionErrors: [],
    changes: [],
    usage: [],
    usageWindowDays: input.usageWindowDays,
  };
  if (input.next.length === 0) {
    report.compositionErrors.push({
      message: "No subgraph would be left: the supergraph cannot be empty.",
      code: "NO_SUBGRAPHS",
      subgraphs: [input.subgraph],
      coordinates: [],
    });
    return { report, supergraph: undefined };
  }
  const composition = composeSubgraphs(input.next);
  if (!composition.ok) {
    report.compositionErrors = composition.problems;
    return { report, supergraph: undefined };
  }
  if (input.served) {
    report.changes = await classifyChanges(apiSchemaOf(input.served.supergraph), apiSchemaOf(composition.supergraph));
    const breaking = report.changes.flatMap((change) => (change.level === "breaking" && change.usageCoordinate ? [change.usageCoordinate] : []));
    const since = new Date((input.now ?? new Date()).getTime() - input.usageWindowDays * 86_400_000);
    report.usage = await usageOf(db, breaking, since);
  }
  report.safe = report.usage.length === 0;
  return { report, supergraph: composition.supergraph };
}
