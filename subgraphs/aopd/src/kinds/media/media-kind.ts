import type { MediaContentType } from "../../database/database-schema.js";
import type { MediaProof, Proof } from "../../proofs/proof.js";
import type { ProofKindModule } from "../proof-kind.js";

const media = (proof: Proof): MediaProof | undefined => (proof.__typename === "AopdMediaProof" ? proof : undefined);

/** The files a media proof takes, as their content decides (detect-media-type.ts). */
const mediaContentTypes: readonly MediaContentType[] = ["image/png", "image/jpeg", "image/webp", "video/mp4", "video/webm"];

/**
 * The media proof: the customer uploads a screenshot or a video of the wallet showing the address
 * (the portal, or an officer's upload: `acceptMediaUpload`); an officer assesses the file
 * (`assessMediaProof`). Requested with `requestMediaProof`.
 */
export const mediaKind: ProofKindModule<"media"> = {
  name: "media",
  typename: "AopdMediaProof",
  decidedBy: "officer",
  leavesForReview: false,
  decisionReasons: ["ADDRESS_NOT_SHOWN", "EVIDENCE_UNREADABLE", "SUSPECTED_MANIPULATION", "THIRD_PARTY_WALLET", "OTHER"],
  exportColumns: {
    // The file is not in the sheet, only what identifies it: it is downloaded on its own.
    evidence: [
      {
        header: "Media type",
        width: 12,
        type: "text",
        value: (p) => media(p)?.contentType ?? null,
        sql: "CASE WHEN p.kind = 'media' THEN p.media_content_type END",
      },
      {
        header: "Media size (bytes)",
        width: 14,
        type: "text",
        value: (p) => (media(p)?.byteSize ?? null)?.toString() ?? null,
        sql: "CASE WHEN p.kind = 'media' THEN p.media_byte_size::text END",
      },
      { header: "Media SHA-256", width: 66, type: "text", value: (p) => media(p)?.sha256 ?? null, sql: "CASE WHEN p.kind = 'media' THEN p.media_sha256 END" },
      {
        header: "Media uploaded (UTC)",
        width: 24,
        type: "date",
        value: (p) => media(p)?.uploadedAt ?? null,
        sql: "CASE WHEN p.kind = 'media' THEN p.media_uploaded_at END",
      },
    ],
  },
  portalView: (config, row) => ({
    accepts: { contentTypes: [...mediaContentTypes], maxImageBytes: config.mediaMaxImageBytes, maxVideoBytes: config.mediaMaxVideoBytes },
    uploaded:
      row.media_content_type === null || row.media_sha256 === null || row.media_uploaded_at === null
        ? null
        : {
            contentType: row.media_content_type,
            byteSize: Number(row.media_byte_size),
            sha256: row.media_sha256,
            uploadedAt: new Date(row.media_uploaded_at).toISOString(),
          },
  }),
  schemaFile: new URL("./media-proof.graphql", import.meta.url),
};
