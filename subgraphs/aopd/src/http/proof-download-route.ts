import { actorOf } from "../audit/audit-actor.js";
import { recordExport, type ExportOutcome } from "../audit/record-export.js";
import type { ServerResponse } from "node:http";
import { ForbiddenError, LimitExceededError, UserInputError, type PublicError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import { aopdRoles } from "../aopd-roles.js";
import {
  BodyTooLargeError,
  MalformedBodyError,
  readJsonBody,
  sendGraphQLError,
  type Logger,
  type RouteCall,
  type RouteDefinition,
} from "@compliance-graph/process-shell";
import { coerceInputValue, type GraphQLInputType, type GraphQLSchema } from "graphql";
import type { AopdServices } from "../graphql/aopd-context.js";
import { streamProofsAsXlsx } from "../export/stream-proofs-as-xlsx.js";
import { ExportBrokeOff } from "../export/export-broke-off.js";
import type { DownloadsInFlight } from "../export/downloads-in-flight.js";

/** Where the gateway sends downloads; the gateway serves the same path to its callers (its entry in subgraph-routes.yaml). */
export const proofDownloadPath = "/exports/proofs.xlsx";

/** The request body is `{ "filter": AopdProofFilterInput }`, a few KiB at most. */
const maxBodyBytes = 65_536;

export interface ProofDownloadRouteOptions {
  services: AopdServices;
  schema: GraphQLSchema;
  logger: Logger;
  /** This replica's downloads, which tell a cut by shutdown from a client leaving. */
  downloads: DownloadsInFlight;
}

/** Why a download is refused, in the route's GraphQL error shape: the status of each, this route's one table. */
class DownloadRefusal {
  constructor(
    readonly status: number,
    readonly error: PublicError,
  ) {}

  static of(error: unknown): DownloadRefusal | undefined {
    if (error instanceof BodyTooLargeError) return new DownloadRefusal(413, new UserInputError("body", error.message));
    if (error instanceof MalformedBodyError) return new DownloadRefusal(400, new UserInputError("body", error.message));
    if (error instanceof UserInputError) return new DownloadRefusal(400, error);
    // The export's size cap is the filter's fault; the caller's exports running already is a matter of waiting.
    if (error instanceof LimitExceededError) return new DownloadRefusal(error.extensions.limit === "maxExportRows" ? 400 : 429, error);
    return undefined;
  }
}

/**
 * `POST /exports/proofs.xlsx`: the export of `proofsAsXlsx`, streamed into the response instead of
 * held whole and sent as base64, so that a million proofs pass with flat memory here and at the
 * gateway (docs/xlsx-export.md, "Download").
 *
 * Threat: the route reads every proof that matches, so it is guarded like the GraphQL field. It
 * is identified: the caller must carry the gateway's internal token (a direct caller gets 401 from
 * the identity door, which the shell applies) with the role `proofs:export` (403); the filter is
 * coerced by the schema's own `AopdProofFilterInput` and compiled by the same filter compiler (400
 * naming the field); the export takes a slot of the same `ExportSlots` as `proofsAsXlsx` (429).
 * The file is sent as an attachment with `nosniff`, so that no browser renders it in the page of
 * the origin.
 *
 * Every download that sent its headers ends in one trail entry and one log line that say the same:
 * complete with its rows, or cut short with the rows written before the cut and why (the client
 * went away, aopd was stopping, or reading the rows failed).
 */
export function proofDownloadRoute(options: ProofDownloadRouteOptions): RouteDefinition<Identity> {
  const { services, logger, downloads } = options;
  const filterType = options.schema.getType("AopdProofFilterInput") as GraphQLInputType;
  const handle = async ({ request, response, requestId, identity }: RouteCall<Identity>): Promise<void> => {
    if (!identity) return;
    if (!identity.roles.includes(aopdRoles.proofsExport))
      return sendGraphQLError(response, 403, new ForbiddenError(aopdRoles.proofsExport, "The download of proofs"));
    let filter: unknown;
    let release: () => void;
    try {
      filter = filterOf(await readJsonBody(request, maxBodyBytes), filterType);
      release = services.exportSlots.acquire(identity.subject);
    } catch (error) {
      return refuse(response, error);
    }
    const started = performance.now();
    // Set when the connection closes before the file ended: the client left, or the shutdown's drain cut it.
    let connectionCut = false;
    response.once("close", () => (connectionCut = !response.writableFinished));
    let rows: number;
    let ended: ExportOutcome = { outcome: "complete" };
    let cause: unknown;
    try {
      rows = await streamProofsAsXlsx(
        services.db,
        {
          filter,
          limits: services.limits,
          maxRows: services.config.maxDownloadRows,
          assetNames: services.config.assets.names,
          pool: services.pool,
          statementTimeoutMs: services.config.database.longStatementTimeoutMs,
        },
        () => {
          response.writeHead(200, {
            "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "content-disposition": 'attachment; filename="proofs.xlsx"',
            "x-content-type-options": "nosniff",
            "cache-control": "no-store",
          });
          return response;
        },
      );
    } catch (error) {
      if (!(error instanceof ExportBrokeOff)) return refuse(response, error);
      // Past the headers only the connection can say that the file broke off: it is cut, never ended.
      rows = error.rows;
      cause = error.cause;
      ended = { outcome: "cut short", why: connectionCut ? (downloads.stopping ? "shutdown" : "client gone") : "error" };
      response.destroy();
    } finally {
      // The file is out (or cut): the caller can start the next export at once, not only after the trail's entry below is written.
      release();
    }
    try {
      await recordExport(services.db, { actor: actorOf(identity), requestId }, "PROOFS_EXPORTED", "download", filter, rows, ended);
    } catch (error) {
      // The file was sent, whole or in part; only its trail entry is missing, which must not pass quietly.
      logger.error({ err: error, requestId, rows, ...ended }, "proof download not recorded in the audit trail");
    }
    const ms = Math.round(performance.now() - started);
    if (ended.outcome === "complete") logger.info({ requestId, rows, ms, ...ended }, "proofs downloaded as XLSX");
    else logger.warn({ err: cause, requestId, rows, ms, ...ended }, "proof download cut short");
  };
  return { path: proofDownloadPath, methods: ["POST"], access: "identified", handle: (call) => downloads.track(() => handle(call)) };
}

/** Answers a refusal by the route's table; anything else is a fault, for the shell's last answer. */
function refuse(response: ServerResponse, error: unknown): void {
  const refusal = DownloadRefusal.of(error);
  if (!refusal) throw error;
  if (refusal.status === 429) response.setHeader("retry-after", "5");
  sendGraphQLError(response, refusal.status, refusal.error);
}

/** The filter as GraphQL would coerce the variable of `proofsAsXlsx(filter:)`, or a `UserInputError` naming the field. */
function filterOf(body: unknown, filterType: GraphQLInputType): unknown {
  if (body === undefined) return undefined;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new UserInputError("body", 'must be a JSON object { "filter": AopdProofFilterInput }.');
  const unknownKey = Object.keys(body).find((key) => key !== "filter");
  if (unknownKey !== undefined) throw new UserInputError(unknownKey, 'is not known; the body holds only "filter".');
  const { filter } = body as { filter?: unknown };
  if (filter === undefined || filter === null) return undefined;
  return coerceInputValue(filter, filterType, (path, _invalid, error) => {
    throw new UserInputError(["filter", ...path].join("."), error.message);
  });
}
