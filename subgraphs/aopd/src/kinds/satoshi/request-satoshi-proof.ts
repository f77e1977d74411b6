import { randomInt } from "node:crypto";
import { refuseListedAddress } from "../../screening/refuse-listed-address.js";
import { UserInputError } from "@compliance-graph/errors";
import { sql, type Kysely } from "kysely";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { createProofOnce, type IdempotencyRequest } from "../../ingestion/create-proof-once.js";
import { credentialUrls } from "../../ingestion/credential-urls.js";
import { optionalComment, requireAddress, requireAsset, requireCustomerId } from "../../ingestion/proof-input-rules.js";

export interface RequestSatoshiProofInput {
  customerId: string;
  asset: string;
  senderAddress: string;
  depositAddress: string;
  comment?: string | null;
}

/**
 * How far above the base amount a proof's amount may lie, in the lowest denomination. The random
 * part makes the amount identify the proof among concurrent ones to the same deposit address.
 */
const amountSpread = 10_000;

export interface SatoshiProofRequest {
  row: ProofRow;
  /** The customer's portal page; it carries the proof's one-time credential, kept only as a hash. */
  portalUrl: string;
}

/**
 * Creates a pending Satoshi proof: the customer is to send exactly `amount` before `due_at`. With an
 * idempotency key, a repeat gets the first request's proof (its amount) and portal URL (see `createProofOnce`).
 */
export async function requestSatoshiProof(
  db: Kysely<AopdDatabase>,
  config: AopdConfig,
  input: RequestSatoshiProofInput,
  idempotency: IdempotencyRequest,
): Promise<SatoshiProofRequest> {
  const customerId = requireCustomerId("input.customerId", input.customerId);
  const asset = requireAsset("input.asset", config, input.asset);
  const base = config.satoshiBaseAmounts[asset.code];
  if (base === undefined) {
    const configured = Object.keys(config.satoshiBaseAmounts).map((code) => config.assets.get(code)?.name ?? code);
    throw new UserInputError("input.asset", `Satoshi proofs are not configured for ${asset.name}; configured: ${configured.join(", ") || "none"}.`);
  }
  const senderAddress = requireAddress("input.senderAddress", config, asset, input.senderAddress);
  const depositAddress = requireAddress("input.depositAddress", config, asset, input.depositAddress);
  if (senderAddress === depositAddress) throw new UserInputError("input.depositAddress", "must differ from the sender address.");
  const comment = optionalComment("input.comment", input.comment);
  await refuseListedAddress(db, config.screening.policy, "input.senderAddress", asset.code, senderAddress);
  const amount = (BigInt(base) + BigInt(randomInt(1, amountSpread))).toString();
  const request = { mutation: "requestSatoshiProof", input, idempotency, lifetimeSeconds: config.idempotencyKeyLifetimeSeconds } as const;
  // One statement: the table's trigger records the CREATED event in the same transaction.
  const { row, token } = await createProofOnce(db, request, (executor, hash) =>
    executor
      .insertInto("aopd_proof")
      .values({
        kind: "satoshi",
        status: "PENDING",
        customer_id: customerId,
        asset: asset.code,
        address: senderAddress,
        deposit_address: depositAddress,
        amount,
        comment,
        due_at: sql<Date>`now() + make_interval(secs => ${config.satoshiProofLifetimeSeconds})`,
        callback_token_hash: hash,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return { row, portalUrl: credentialUrls(config, token).portalUrl };
}
