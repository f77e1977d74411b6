import type { ServerResponse } from "node:http";
import type { Kysely } from "kysely";
import { BodyTooLargeError, MalformedBodyError, readJsonBody, type RouteDefinition } from "@compliance-graph/process-shell";
import type { AopdDatabase } from "../database/database-schema.js";
import { latestAuditCheckpoint } from "../audit/audit-checkpoints.js";
import { AuditProofRangeError, auditConsistencyProof } from "../audit/audit-tree-store.js";
import { auditCheckpointKeyPath, auditCheckpointPath, auditConsistencyPath, auditCosignaturePath } from "../audit/audit-log-paths.js";
import { acceptCosignature, CosignatureRefusal } from "../audit/accept-cosignature.js";
import { verifierKeyOf, type NoteSigner, type NoteVerifier } from "../audit/signed-note.js";
import { PublicRouteError } from "./public-route-error.js";
import { useOf, type PublicRouteLimits } from "./public-route-limits.js";

/** A cosigned checkpoint is a few hundred bytes; a body of more is refused unread. */
const cosignatureBodyLimit = 16 * 1024;

/**
 * The audit log's public routes (docs/audit-transparency.md), for anyone without a token, as the
 * receipt keys are: a witness or an auditor who needed our token to check our log would be
 * checking with our permission. The gateway serves them at the same paths (subgraph-routes.yaml).
 *
 * - `GET /.well-known/aopd-audit-checkpoint`: the latest signed checkpoint (a C2SP signed note)
 *   with the cosignatures received for it, as text; 404 before the first.
 * - `GET /.well-known/aopd-audit-checkpoint-key`: the verifier key, C2SP vkey form.
 * - `GET /.well-known/aopd-audit-consistency?from=N&to=M`: the RFC 9162 consistency proof between
 *   two tree sizes, one base64 hash a line (what a witness needs, with only a URL).
 * - `POST /.well-known/aopd-audit-cosignature`: a witness's cosigned checkpoint,
 *   `{"checkpoint": "<the note with its cosignature line>"}`; kept and published when it is a
 *   checkpoint aopd signed and the cosignature is by a configured witness (`AOPD_AUDIT_WITNESS_KEYS`).
 *
 * Each counts against its client address as the portal's routes do (`PublicRouteLimits`: reads and
 * submissions apart), since anyone may call them and a consistency proof reads the database.
 */
export function auditLogRoutes(options: {
  db: Kysely<AopdDatabase>;
  signer: NoteSigner;
  witnesses: readonly NoteVerifier[];
  limits: PublicRouteLimits;
}): RouteDefinition<never>[] {
  const { db, signer, witnesses, limits } = options;
  const verifierKey = `${verifierKeyOf(signer)}\n`;
  const routes: RouteDefinition<never>[] = [
    {
      path: auditCheckpointPath,
      methods: ["GET", "HEAD"],
      access: "public",
      handle: async ({ request, response }) => {
        const latest = await latestAuditCheckpoint(db);
        if (!latest)
          return answer(response, 404, "no checkpoint has been signed yet: the audit trail is empty or its first entries are being chained\n", "no-store");
        answer(response, 200, latest.note, "no-cache", request.method === "HEAD");
      },
    },
    {
      path: auditCheckpointKeyPath,
      methods: ["GET", "HEAD"],
      access: "public",
      handle: ({ request, response }) => answer(response, 200, verifierKey, "public, max-age=300", request.method === "HEAD"),
    },
    {
      path: auditConsistencyPath,
      methods: ["GET"],
      access: "public",
      handle: async ({ response, query }) => {
        const from = wholeNumber(query.get("from"));
        const to = wholeNumber(query.get("to"));
        if (from === undefined || to === undefined)
          return answer(response, 400, "from and to must be tree sizes (whole numbers), from at most to: ?from=N&to=M\n", "no-store");
        try {
          const proof = await auditConsistencyProof(db, from, to);
          // A proof between two sizes never changes: cacheable for good.
          answer(response, 200, proof.map((hash) => `${hash.toString("base64")}\n`).join(""), "public, max-age=31536000, immutable");
        } catch (error) {
          if (error instanceof AuditProofRangeError) return answer(response, 400, `${error.message}\n`, "no-store");
          throw error;
        }
      },
    },
    {
      path: auditCosignaturePath,
      methods: ["POST"],
      access: "public",
      handle: async ({ request, response }) => {
        let body: unknown;
        try {
          body = await readJsonBody(request, cosignatureBodyLimit);
        } catch (error) {
          if (error instanceof BodyTooLargeError) return answer(response, 413, `the body exceeds ${cosignatureBodyLimit} bytes\n`, "no-store");
          if (error instanceof MalformedBodyError)
            return answer(response, 400, 'the body must be JSON: {"checkpoint": "<the cosigned checkpoint note>"}\n', "no-store");
          throw error;
        }
        const checkpoint = (body as { checkpoint?: unknown } | null)?.checkpoint;
        if (typeof checkpoint !== "string")
          return answer(response, 400, 'the body must be JSON: {"checkpoint": "<the cosigned checkpoint note>"}\n', "no-store");
        try {
          const accepted = await acceptCosignature(db, { signer, witnesses }, checkpoint);
          answer(response, 200, `cosignature of ${accepted.witnesses.join(", ")} on tree size ${accepted.treeSize} kept\n`, "no-store");
        } catch (error) {
          if (error instanceof CosignatureRefusal) return answer(response, error.status, `${error.message}\n`, "no-store");
          throw error;
        }
      },
    },
  ];
  return routes.map((route) => ({
    ...route,
    handle: (call) => {
      try {
        limits.check(call.request, undefined, useOf(call.request));
      } catch (error) {
        if (!(error instanceof PublicRouteError)) throw error;
        call.response.setHeader("retry-after", String(error.retryAfterSeconds ?? 60));
        return answer(call.response, 429, `${error.message}\n`, "no-store");
      }
      return route.handle(call);
    },
  }));
}

function wholeNumber(text: string | null): number | undefined {
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

function answer(response: ServerResponse, status: number, text: string, cacheControl: string, headOnly = false): void {
  response.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": cacheControl,
    "x-content-type-options": "nosniff",
    "content-length": Buffer.byteLength(text),
  });
  response.end(headOnly ? undefined : text);
}
