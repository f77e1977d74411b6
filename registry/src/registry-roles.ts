import { RegistryError } from "./registry-error.js";
import type { Actor } from "./registry-context.js";

/** The registry's roles: `schema:publish` checks, publishes, rolls back and removes; `schema:admin` changes a subgraph's owners. */
export const registryRoles = { publish: "schema:publish", admin: "schema:admin" } as const;

/** Refuses an actor without the role (the gateway checks it first; the registry does not rely on that). */
export function requireRole(actor: Actor, role: string): void {
  if (!actor.roles.includes(role)) throw new RegistryError("forbidden", `The role ${role} is required.`);
}

/** Refuses a client that does not own the subgraph. */
export function requireOwner(actor: Actor, subgraph: string, owners: readonly string[]): void {
  if (!owners.includes(actor.client)) {
    throw new RegistryError(
      "not_owner",
      `The subgraph ${subgraph} is owned by ${owners.join(", ")}; the client ${actor.client} may not change it (an administrator with ${registryRoles.admin} can add it to the owners).`,
    );
  }
}
