import { sql, type Kysely } from "kysely";
import { refuseListedAddress } from "../../screening/refuse-listed-address.js";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { createProofOnce, type IdempotencyRequest } from "../../ingestion/create-proof-once.js";
import { credentialUrls } from "../../ingestion/credential-urls.js";
import { optionalComment, requireAddress, requireAsset, requireCustomerId } from "../../ingestion/proof-input-rules.js";

export interface RequestMediaProofInput {
  customerId: string;
  asset: string;
  expectedAddress: string;
  comment?: string | null;
}

export interface MediaProofRequest {
  row: ProofRow;
  /** The customer's portal page; it carries the proof's one-time credential, kept only as a hash. */
  portalUrl: string;
}

/**
 * Creates a pending media proof: the customer is to upload a screenshot or video before `due_at`.
 * With an idempotency key, a repeat gets the first request's proof and portal URL (see `createProofOnce`).
 */
export async function requestMediaProof(
  db: Kysely<AopdDatabase>,
  config: AopdConfig,
  input: RequestMediaProofInput,
  idempotency: IdempotencyRequest,
): Promise<MediaProofRequest> {
  const customerId = requireCustomerId("input.customerId", input.customerId);
  const asset = requireAsset("input.asset", config, input.asset);
  const address = requireAddress("input.expectedAddress", config, asset, input.expectedAddress);
  const comment = optionalComment("input.comment", input.comment);
  await refuseListedAddress(db, config.screening.policy, "input.expectedAddress", asset.code, address);
  const request = { mutation: "requestMediaProof", input, idempotency, lifetimeSeconds: config.idempotencyKeyLifetimeSeconds } as const;
  // One statement: the table's trigger records the CREATED event in the same transaction.
  const { row, token } = await createProofOnce(db, request, (executor, hash) =>
    executor
      .insertInto("aopd_proof")
      .values({
        kind: "media",
        status: "PENDING",
        customer_id: customerId,
        asset: asset.code,
        address,
        comment,
        due_at: sql<Date>`now() + make_interval(secs => ${config.mediaProofLifetimeSeconds})`,
        callback_token_hash: hash,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return { row, portalUrl: credentialUrls(config, token).portalUrl };
}
