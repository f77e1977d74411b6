import { RegistryError } from "../registry-error.js";

/** Most characters of one subgraph's SDL. */
export const maxSchemaChars = 1_000_000;

/** A subgraph's name as supergraph.yaml spells it (and composition's join__Graph enum takes it). */
export function subgraphName(value: unknown): string {
  if (typeof value !== "string" || !/^[a-z][a-z0-9_]{0,62}$/.test(value))
    throw new RegistryError("invalid_input", "name must be a subgraph name: a lower-case letter, then lower-case letters, digits or _ (at most 63).");
  return value;
}

export function subgraphUrl(value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password)
    throw new RegistryError("invalid_input", "url must be the subgraph's http(s) routing URL, without credentials.");
  return url.toString();
}

export function subgraphSchema(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw new RegistryError("invalid_input", "schema must be the subgraph's SDL text.");
  if (value.length > maxSchemaChars) throw new RegistryError("invalid_input", `schema must be at most ${maxSchemaChars} characters.`);
  return value;
}

/** `force` needs a reason, which the history keeps. */
export function forcedReason(force: unknown, reason: unknown): string | null {
  if (force === undefined || force === false) return null;
  if (force !== true) throw new RegistryError("invalid_input", "force must be true or false.");
  if (typeof reason !== "string" || reason.trim() === "" || reason.length > 2_000)
    throw new RegistryError("invalid_input", "reason must say why the refusal is overridden (1 to 2000 characters) when force is set.");
  return reason.trim();
}
