import type { ServerResponse } from "node:http";
import type { PublicError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import {
  BodyTooLargeError,
  MalformedBodyError,
  readJsonBody,
  sendJson,
  type RouteCall,
  type RouteDefinition,
  type RouteRefusal,
} from "@compliance-graph/process-shell";
import type { JWK } from "jose";
import { publishSubgraph } from "../publish/publish-subgraph.js";
import { removeSubgraph } from "../publish/remove-subgraph.js";
import { rollBackToVersion } from "../publish/roll-back-to-version.js";
import { ownerHistory } from "../publish/owner-history.js";
import { setSubgraphOwners } from "../publish/set-subgraph-owners.js";
import { historyQuery, subgraphHistory } from "../publish/subgraph-history.js";
import { RegistryError } from "../registry-error.js";
import type { Actor, RegistryContext } from "../registry-context.js";
import { registryRoles, requireRole } from "../registry-roles.js";
import { parseUsageReports } from "../usage/usage-report.js";
import { recordUsage } from "../usage/usage-store.js";

/** Largest body of a publish or check (a subgraph's SDL and its routes). @default 2 MiB */
const maxPublishBodyBytes = 2 * 1_048_576;
/** Largest `POST /usage` body. @default 4 MiB */
const maxUsageBodyBytes = 4 * 1_048_576;

/** The `azp` (and `sub`) of the internal token a gateway reports usage with. */
export const usageReporterClient = "compliance-graph-gateway";

/** The shell's refusals (401, 405) in the registry's one body shape, `{ error, reason }`. */
const refuse: RouteRefusal = (response, status, error: PublicError) =>
  sendJson(response, status, { error: String(error.extensions.code).toLowerCase(), reason: error.message });

export interface RegistryRoutesOptions {
  context: RegistryContext;
  /** The JWKS served at `/.well-known/registry-keys.json`: the signing key's public half, and retired ones still verifying older versions. */
  publicKeys: JWK[];
}

/**
 * The registry's routes: the internal ones the gateways call (`/supergraph`, `/usage`, the keys)
 * and, under `/registry/`, the ones the command line reaches through the gateway's door. Every
 * identified route is behind the registry's identity door (the gateway's internal token).
 */
export function registryRoutes(options: RegistryRoutesOptions): RouteDefinition<Identity>[] {
  const { context } = options;
  const keys = JSON.stringify({ keys: options.publicKeys });
  const actorOf = (identity: Identity | undefined): Actor => ({
    subject: identity?.subject ?? "",
    client: identity?.client ?? "",
    roles: identity?.roles ?? [],
  });
  /** A route answering JSON, with the registry's refusals and bad bodies answered in the same shape. */
  const json = (
    path: string,
    methods: string[],
    answer: (call: RouteCall<Identity>, body: Record<string, unknown>) => Promise<{ status: number; body: unknown }>,
    bodyLimit = maxPublishBodyBytes,
  ): RouteDefinition<Identity> => ({
    path,
    methods,
    access: "identified",
    refuse,
    handle: async (call) => {
      try {
        let body: Record<string, unknown> = {};
        if (call.request.method === "POST") {
          const parsed = await readJsonBody(call.request, bodyLimit);
          if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
            throw new RegistryError("invalid_input", "The body must be a JSON object.");
          body = parsed as Record<string, unknown>;
        }
        const answered = await answer(call, body);
        sendJson(call.response, answered.status, answered.body);
      } catch (error) {
        answerError(call.response, error);
      }
    },
  });
  return [
    {
      path: "/supergraph",
      methods: ["GET"],
      access: "public",
      refuse,
      handle: async ({ request, response }) => {
        const newest = await context.db.selectFrom("registry_version").select("version").orderBy("version", "desc").limit(1).executeTakeFirst();
        if (!newest) return sendJson(response, 404, { error: "nothing_published", reason: "No supergraph is published yet." });
        const etag = `"${newest.version}"`;
        if (request.headers["if-none-match"] === etag) {
          response.writeHead(304, { etag });
          return void response.end();
        }
        const served = await context.db
          .selectFrom("registry_version")
          .select(["version", "supergraph", "routes", "signature"])
          .where("version", "=", newest.version)
          .executeTakeFirstOrThrow();
        response.setHeader("etag", etag);
        sendJson(response, 200, served);
      },
    },
    {
      path: "/.well-known/registry-keys.json",
      methods: ["GET", "HEAD"],
      access: "public",
      refuse,
      handle: ({ response }) => {
        response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
        response.end(keys);
      },
    },
    json(
      "/usage",
      ["POST"],
      async ({ identity }, body) => {
        // Only a gateway's own report: a caller's token forwarded under /registry/ carries the caller's azp.
        if (identity?.client !== usageReporterClient)
          throw new RegistryError("forbidden", `Usage is reported by the gateways only (internal token with azp ${usageReporterClient}).`);
        const reports = parseUsageReports(body);
        await recordUsage(context.db, reports);
        return { status: 202, body: { accepted: reports.length } };
      },
      maxUsageBodyBytes,
    ),
    json("/registry/subgraphs/check", ["POST"], async ({ identity }, body) => ({
      status: 200,
      body: (await publishSubgraph(context, actorOf(identity), body, true)).check,
    })),
    json("/registry/subgraphs/publish", ["POST"], async ({ identity }, body) => {
      const outcome = await publishSubgraph(context, actorOf(identity), body, false);
      return { status: outcome.published ? 200 : 409, body: outcome };
    }),
    json("/registry/subgraphs/remove", ["POST"], async ({ identity }, body) => {
      const outcome = await removeSubgraph(context, actorOf(identity), body);
      return { status: outcome.published ? 200 : 409, body: outcome };
    }),
    json("/registry/subgraphs/rollback", ["POST"], async ({ identity }, body) => ({
      status: 200,
      body: await rollBackToVersion(context, actorOf(identity), body),
    })),
    json("/registry/subgraphs/history", ["GET"], async ({ identity, query }) => {
      requireRole(actorOf(identity), registryRoles.publish);
      const versions = await subgraphHistory(context.db, query);
      const { name, limit } = historyQuery(query);
      return { status: 200, body: { versions, ownerChanges: await ownerHistory(context.db, name, limit) } };
    }),
    json("/registry/subgraphs/list", ["GET"], async ({ identity }) => {
      requireRole(actorOf(identity), registryRoles.publish);
      const rows = await context.db.selectFrom("registry_subgraph").select(["name", "url", "owners", "updated_at"]).orderBy("name").execute();
      return {
        status: 200,
        body: { subgraphs: rows.map((row) => ({ name: row.name, url: row.url, owners: row.owners, updatedAt: new Date(row.updated_at).toISOString() })) },
      };
    }),
    json("/registry/owners/set", ["POST"], async ({ identity }, body) => ({ status: 200, body: await setSubgraphOwners(context, actorOf(identity), body) })),
  ];
}

/** The registry's refusals and bad bodies as `{ error, reason }`; anything else goes up to the shell's masked 500. */
function answerError(response: ServerResponse, error: unknown): void {
  if (error instanceof RegistryError) return sendJson(response, error.status, { error: error.code, reason: error.message });
  if (error instanceof BodyTooLargeError) return sendJson(response, 413, { error: "body_too_large", reason: error.message });
  if (error instanceof MalformedBodyError) return sendJson(response, 400, { error: "invalid_input", reason: "The body must be JSON." });
  throw error;
}
