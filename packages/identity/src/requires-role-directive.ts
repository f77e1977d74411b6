import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Kind, type ConstDirectiveNode } from "graphql";

/** The `@link` URL under which subgraphs import `@requiresRole`. */
export const authorizationSpecUrl = "https://compliance-graph.dev/authorization/v1.0";

export const requiresRoleDirectiveName = "requiresRole";

/** Path of the `.graphql` file that defines the directive; subgraph schemas include it from here. */
export const requiresRoleDirectivePath = fileURLToPath(new URL("../schema/requires-role.graphql", import.meta.url));

/** The directive definition (with its description) as SDL text. */
export const requiresRoleDirectiveSdl = readFileSync(requiresRoleDirectivePath, "utf8");

/** The role a `@requiresRole(role: "...")` among `directives` asks for, if there is one. */
export function requiredRoleIn(directives: readonly ConstDirectiveNode[] | undefined): string | undefined {
  for (const directive of directives ?? []) {
    if (directive.name.value !== requiresRoleDirectiveName) continue;
    const argument = directive.arguments?.find((candidate) => candidate.name.value === "role");
    if (argument?.value.kind === Kind.STRING) return argument.value.value;
  }
  return undefined;
}
