import { RegistryError } from "../registry-error.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { registryRoles, requireRole } from "../registry-roles.js";
import { subgraphName } from "./subgraph-input.js";

/**
 * `schema:admin` changes which clients (`azp`) may publish a subgraph. Who may publish is as much
 * the subgraph's history as what was published: each change is appended to
 * `registry_owner_change` (who, when, the owners before and after) in the transaction that makes
 * it, under a lock of the subgraph's row, so two changes at once are recorded each from the owners
 * the other left. Setting the owners already set records nothing.
 */
export async function setSubgraphOwners(context: RegistryContext, actor: Actor, body: Record<string, unknown>): Promise<{ name: string; owners: string[] }> {
  requireRole(actor, registryRoles.admin);
  const name = subgraphName(body.name);
  const owners = body.owners;
  if (
    !Array.isArray(owners) ||
    owners.length === 0 ||
    owners.length > 50 ||
    owners.some((owner) => typeof owner !== "string" || owner === "" || owner.length > 200)
  ) {
    throw new RegistryError("invalid_input", "owners must be a list of 1 to 50 client ids (azp).");
  }
  const unique = [...new Set(owners as string[])].sort();
  return context.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("registry_subgraph").select("owners").where("name", "=", name).forUpdate().executeTakeFirst();
    if (!current) throw new RegistryError("not_found", `No subgraph is named ${name}.`);
    const before = [...current.owners].sort();
    if (before.join("\n") === unique.join("\n")) return { name, owners: unique };
    await trx.updateTable("registry_subgraph").set({ owners: unique }).where("name", "=", name).execute();
    await trx
      .insertInto("registry_owner_change")
      .values({ subgraph: name, actor_subject: actor.subject, actor_client: actor.client, owners_before: before, owners_after: unique })
      .execute();
    return { name, owners: unique };
  });
}
