import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

/** One resource of a manifest, as far as the deployment tests read it. */
export interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  [key: string]: unknown;
}

/** Every resource of a YAML file of manifests. */
export function resourcesOf(file: string): Resource[] {
  return parseAllDocuments(readFileSync(file, "utf8")).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    return document.toJS() as Resource;
  });
}

/** The realm roles of a service-account client of the committed realm; undefined when the realm has no such client. */
export function realmRolesOfClient(clientId: string): string[] | undefined {
  const realm = JSON.parse(readFileSync("dev-identity-provider/realm/dev-realm.json", "utf8")) as {
    clients: { clientId: string; serviceAccountsEnabled?: boolean }[];
    users: { serviceAccountClientId?: string; realmRoles?: string[] }[];
  };
  if (!realm.clients.some((client) => client.clientId === clientId && client.serviceAccountsEnabled)) return undefined;
  return realm.users.find((user) => user.serviceAccountClientId === clientId)?.realmRoles;
}

/** The paths of docs/operations.md's "What an ingress routes" (but the trial's /auth/), without a trailing slash, sorted. */
export function ingressPaths(): string[] {
  const operations = readFileSync("docs/operations.md", "utf8");
  const table = operations.slice(operations.indexOf("## What an ingress routes"), operations.indexOf("The gateway's rows other than"));
  return [...table.matchAll(/^\| `([^`]+)`/gm)]
    .map((match) => match[1]!.replace(/\/$/, ""))
    .filter((path) => path !== "/auth")
    .sort();
}

/** The kind's model from kubernetes-models (`apps/v1` -> `kubernetes-models/apps/v1/Deployment`). */
export async function validate(resource: Resource): Promise<void> {
  const module = (await import(/* @vite-ignore */ `kubernetes-models/${resource.apiVersion}/${resource.kind}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const Model = module[resource.kind];
  if (!Model) throw new Error(`kubernetes-models has no ${resource.apiVersion} ${resource.kind}`);
  new Model(resource).validate();
}

/** A container as the deployment tests read it. */
export interface Container {
  name: string;
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string }; timeoutSeconds?: number };
  startupProbe?: { httpGet?: { path: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string; value?: string }[];
}
