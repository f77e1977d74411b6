import type { SubgraphSnapshot } from "../database/registry-database-schema.js";
import type { CheckReport } from "../check/check-report.js";
import { checkSubgraphs } from "../check/check-subgraphs.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { registryRoles, requireOwner, requireRole } from "../registry-roles.js";
import { appendVersion, lockRegistry, servedVersion } from "./append-version.js";
import { subgraphRouteEntries } from "./subgraph-route-entries.js";
import { forcedReason, subgraphName, subgraphSchema, subgraphUrl } from "./subgraph-input.js";

export interface PublishOutcome {
  /** True when a new version serves the candidate (or it was already served: `unchanged`). */
  published: boolean;
  /** The version serving it; absent when refused. */
  version?: number;
  /** The candidate is what is served already: nothing was written (a repeated publish gets the same answer). */
  unchanged?: boolean;
  /** Set when published past a refusal. */
  forced?: boolean;
  check: CheckReport;
}

/**
 * `check` (`dryRun`) and `publish`: the candidate composed with every current subgraph and
 * checked against what is served. A publish is refused where the check is not safe, unless forced
 * with a reason; a subgraph is changed only by its owners.
 */
export async function publishSubgraph(context: RegistryContext, actor: Actor, body: Record<string, unknown>, dryRun: boolean): Promise<PublishOutcome> {
  requireRole(actor, registryRoles.publish);
  const name = subgraphName(body.name);
  const url = subgraphUrl(body.url);
  const schema = subgraphSchema(body.schema);
  const reason = dryRun ? null : forcedReason(body.force, body.reason);
  return context.db.transaction().execute(async (trx) => {
    if (!dryRun) await lockRegistry(trx);
    const current = await trx.selectFrom("registry_subgraph").selectAll().orderBy("name").execute();
    const existing = current.find((subgraph) => subgraph.name === name);
    if (existing) requireOwner(actor, name, existing.owners);
    const otherRoutes = current.filter((subgraph) => subgraph.name !== name).flatMap((subgraph) => JSON.parse(subgraph.routes) as Record<string, unknown>[]);
    // Routes not given keep the subgraph's routes; an empty list removes them.
    const routes = subgraphRouteEntries(body.routes === undefined && existing ? JSON.parse(existing.routes) : body.routes, name, otherRoutes);
    const candidate: SubgraphSnapshot = { name, url, schema, routes };
    const next = [
      ...current
        .filter((subgraph) => subgraph.name !== name)
        .map((subgraph) => ({ name: subgraph.name, url: subgraph.url, schema: subgraph.schema, routes: JSON.parse(subgraph.routes) as unknown[] })),
      candidate,
    ].sort((a, b) => a.name.localeCompare(b.name));
    const served = await servedVersion(trx);
    const { report, supergraph } = await checkSubgraphs(trx, { subgraph: name, next, served, usageWindowDays: context.usageWindowDays });
    if (dryRun) return { published: false, check: report };
    if (existing && served && existing.url === url && existing.schema === schema && existing.routes === JSON.stringify(routes)) {
      return { published: true, version: served.version, unchanged: true, check: report };
    }
    // A supergraph that does not compose cannot be served, forced or not.
    if (!supergraph || (!report.safe && reason === null)) return { published: false, check: report };
    const version = await appendVersion(context, trx, {
      subgraph: name,
      action: "publish",
      actor,
      reason,
      diff: report,
      supergraph,
      subgraphs: next,
      ownersOfNew: [actor.client],
    });
    return { published: true, version, check: report, ...(reason !== null && !report.safe ? { forced: true } : {}) };
  });
}
