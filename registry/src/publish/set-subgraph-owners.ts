import { RegistryError } from "../registry-error.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { registryRoles, requireRole } from "../registry-roles.js";
import { subgraphName } from "./subgraph-input.js";

/** `schema:admin` changes which clients (`azp`) may publish a subgraph. */
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
  const updated = await context.db.updateTable("registry_subgraph").set({ owners: unique }).where("name", "=", name).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new RegistryError("not_found", `No subgraph is named ${name}.`);
  return { name, owners: unique };
}
