import { checkSubgraphs } from "../check/check-subgraphs.js";
import { RegistryError } from "../registry-error.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { registryRoles, requireOwner, requireRole } from "../registry-roles.js";
import { appendVersion, lockRegistry, servedVersion } from "./append-version.js";
import type { PublishOutcome } from "./publish-subgraph.js";
import { forcedReason, subgraphName } from "./subgraph-input.js";

/** `remove --name N`: a version without the subgraph, checked as a publish is (its fields' use breaks clients). */
export async function removeSubgraph(context: RegistryContext, actor: Actor, body: Record<string, unknown>): Promise<PublishOutcome> {
  requireRole(actor, registryRoles.publish);
  const name = subgraphName(body.name);
  const reason = forcedReason(body.force, body.reason);
  return context.db.transaction().execute(async (trx) => {
    await lockRegistry(trx);
    const current = await trx.selectFrom("registry_subgraph").selectAll().orderBy("name").execute();
    const existing = current.find((subgraph) => subgraph.name === name);
    if (!existing)
      throw new RegistryError("not_found", `No subgraph is named ${name}; the current ones: ${current.map((subgraph) => subgraph.name).join(", ") || "none"}.`);
    requireOwner(actor, name, existing.owners);
    const next = current
      .filter((subgraph) => subgraph.name !== name)
      .map((subgraph) => ({ name: subgraph.name, url: subgraph.url, schema: subgraph.schema, routes: JSON.parse(subgraph.routes) as unknown[] }));
    const served = await servedVersion(trx);
    const { report, supergraph } = await checkSubgraphs(trx, { subgraph: name, next, served, usageWindowDays: context.usageWindowDays });
    if (!supergraph || (!report.safe && reason === null)) return { published: false, check: report };
    const version = await appendVersion(context, trx, {
      subgraph: name,
      action: "remove",
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
