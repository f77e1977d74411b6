import { classifyChanges } from "../check/classify-changes.js";
import { apiSchemaOf } from "../check/compose-subgraphs.js";
import { RegistryError } from "../registry-error.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { registryRoles, requireOwner, requireRole } from "../registry-roles.js";
import { appendVersion, lockRegistry, servedVersion } from "./append-version.js";

/**
 * `rollback --to VERSION`: a new version serving exactly the supergraph of an earlier one (its
 * subgraphs, URLs and routes). The history is never rewritten: the rollback is a version of its
 * own, with its diff. It is not refused for recorded usage (it returns to what served before, the
 * way out of a bad publish), but the caller must own every subgraph it changes.
 */
export async function rollBackToVersion(
  context: RegistryContext,
  actor: Actor,
  body: Record<string, unknown>,
): Promise<{ version: number; rolledBackTo: number; unchanged?: boolean }> {
  requireRole(actor, registryRoles.publish);
  const to = body.to;
  if (typeof to !== "number" || !Number.isSafeInteger(to) || to < 1)
    throw new RegistryError("invalid_input", "to must be the number of an earlier version (see history).");
  return context.db.transaction().execute(async (trx) => {
    await lockRegistry(trx);
    const target = await trx.selectFrom("registry_version").select(["version", "supergraph", "subgraphs"]).where("version", "=", to).executeTakeFirst();
    if (!target) throw new RegistryError("not_found", `No version ${to} exists; see history.`);
    const served = await servedVersion(trx);
    if (!served) throw new RegistryError("nothing_published", "Nothing is published yet.");
    if (served.supergraph === target.supergraph && JSON.stringify(served.subgraphs) === JSON.stringify(target.subgraphs))
      return { version: served.version, rolledBackTo: to, unchanged: true };
    const current = await trx.selectFrom("registry_subgraph").selectAll().execute();
    for (const subgraph of current) {
      const then = target.subgraphs.find(({ name }) => name === subgraph.name);
      const changed = !then || then.url !== subgraph.url || then.schema !== subgraph.schema || JSON.stringify(then.routes) !== subgraph.routes;
      if (changed) requireOwner(actor, subgraph.name, subgraph.owners);
    }
    const changes = await classifyChanges(apiSchemaOf(served.supergraph), apiSchemaOf(target.supergraph));
    const version = await appendVersion(context, trx, {
      subgraph: target.subgraphs.map(({ name }) => name).join(","),
      action: "rollback",
      actor,
      reason: `rollback to version ${to}`,
      diff: { rolledBackTo: to, changes },
      supergraph: target.supergraph,
      subgraphs: target.subgraphs,
      ownersOfNew: [actor.client],
    });
    return { version, rolledBackTo: to };
  });
}
