import { actorOf } from "../audit/audit-actor.js";
import { mediaReadPurposes, recordMediaRead, type MediaReadPurpose } from "../audit/record-media-read.js";
import { isUuid } from "@compliance-graph/filter";
import type { Identity } from "@compliance-graph/identity";
import { aopdRoles } from "../aopd-roles.js";
import { sendJson, type Logger, type RouteDefinition } from "@compliance-graph/process-shell";
import type { Kysely } from "kysely";
import type { AopdConfig } from "../aopd-config.js";
import type { AopdDatabase } from "../database/database-schema.js";
import { answerPublicRouteFailure } from "./answer-public-route-failure.js";
import { PublicRouteError, sendPublicRouteError } from "./public-route-error.js";
import { toProof } from "../proofs/proof.js";
import { acceptMediaUpload } from "../kinds/media/accept-media-upload.js";
import type { MediaUploadSlots } from "../kinds/media/media-upload-slots.js";
import { readProofMedia } from "../kinds/media/read-proof-media.js";
import { serveProofMedia } from "./serve-proof-media.js";

/** `/aopd/media/<proof id>`: the path is the same at the gateway, which forwards it here with an internal token. */
export const officerMediaPathPrefix = "/aopd/media/";

const unauthenticatedReason = "A valid internal identity token is required; call this route through the gateway with a bearer token.";

export interface OfficerMediaServices {
  db: Kysely<AopdDatabase>;
  config: AopdConfig;
  uploadSlots: MediaUploadSlots;
  logger: Logger;
}

/**
 * The compliance team's route to a media proof's file: `GET` reads it (role `proofs:export`): a
 * download, or with `?purpose=view` a view on an officer's screen, each its own action on the trail
 * (`recordMediaRead`);
 * `PUT` attaches a file received another way (role `proofs:write`), with the raw file as the body.
 * Plain HTTP rather than GraphQL because a video does not fit a JSON document; reached through
 * the gateway, which checks the caller's bearer token and sends the same internal token as for
 * `/graphql`, so like every aopd route it answers nothing to a caller without one.
 */
export function officerMediaRoute(services: OfficerMediaServices): RouteDefinition<Identity> {
  const handle: RouteDefinition<Identity>["handle"] = async ({ request, response, requestId, rest: id, identity }) => {
    if (!identity) return;
    response.setHeader("cache-control", "no-store");
    try {
      if (!isUuid(id)) throw new PublicRouteError("unknown_proof", "No proof has this id.");
      if (request.method === "GET" || request.method === "HEAD") {
        requireRole(identity, aopdRoles.proofsExport);
        const purpose = readPurposeOf(request.url);
        const media = await readProofMedia(services.db, id.toLowerCase());
        if (!media) throw new PublicRouteError("unknown_proof", "No media proof with an uploaded file has this id.");
        // Recorded before the first byte leaves: a download broken off has still shown the file.
        if (request.method === "GET") {
          await recordMediaRead(services.db, {
            purpose,
            proofId: id.toLowerCase(),
            origin: { actor: actorOf(identity), requestId },
            sha256: media.sha256,
            byteSize: media.byteSize,
            viewWindowSeconds: services.config.mediaViewWindowSeconds,
          });
        }
        await serveProofMedia(response, id.toLowerCase(), media, { headOnly: request.method === "HEAD", logger: services.logger, requestId });
        return;
      }
      if (request.method === "PUT") {
        requireRole(identity, aopdRoles.proofsWrite);
        // Officers reach aopd through the gateway, so the socket address is the gateway's: they are counted per subject.
        const stored = await acceptMediaUpload(services, request, { id }, `officer:${identity.subject}`, { actor: actorOf(identity), requestId });
        if (!stored.repeated) services.logger.info({ requestId, proofId: stored.row.id, subject: identity.subject }, "media attached by an officer");
        sendJson(response, 200, { proof: toProof(stored.row) });
        return;
      }
      response.setHeader("allow", "GET, HEAD, PUT");
      throw new PublicRouteError("method_not_allowed", `${request.method ?? "This method"} is not allowed here; use GET to download or PUT to upload.`);
    } catch (error) {
      answerPublicRouteFailure(response, error, services.logger, requestId);
    }
  };
  return {
    path: `${officerMediaPathPrefix}*`,
    access: "identified",
    // The door's refusal in this route's shape, `{ error, reason }`, as every answer of it.
    refuse: (response) => {
      response.setHeader("cache-control", "no-store");
      sendPublicRouteError(response, new PublicRouteError("unauthenticated", unauthenticatedReason));
    },
    handle,
  };
}

function requireRole(identity: Identity, role: string): void {
  if (!identity.roles.includes(role)) throw new PublicRouteError("forbidden", `This needs the role ${role}.`);
}

/** `?purpose=view` or `?purpose=download` (the default, so a plain link downloads); any other value is refused, naming the allowed ones. */
function readPurposeOf(url: string | undefined): MediaReadPurpose {
  const purpose = new URL(url ?? "/", "http://aopd.invalid").searchParams.get("purpose");
  if (purpose === null) return "download";
  if ((mediaReadPurposes as readonly string[]).includes(purpose)) return purpose as MediaReadPurpose;
  throw new PublicRouteError("invalid_query", `purpose: ${JSON.stringify(purpose.slice(0, 40))} is not allowed; use view or download.`);
}
