import { createHash, randomBytes } from "node:crypto";
import { ConflictError, UserInputError } from "@compliance-graph/errors";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, IdempotentMutation, ProofRow } from "../database/database-schema.js";
import { appendAuditEntry } from "../audit/append-audit-entry.js";
import type { AuditOrigin } from "../audit/audit-origin.js";
import { inTransaction } from "../database/in-transaction.js";
import { newCallbackToken } from "./callback-token.js";
import { idempotentCredential } from "./idempotent-credential.js";

/** What a request mutation was called with beside its input. */
export interface IdempotencyRequest {
  /**
   * Who asks, as the audit trail names them (its `REQUESTED` entry). A key belongs to its caller
   * (token subject and client); another caller's same key is another request.
   */
  origin: AuditOrigin;
  /** The client's idempotency key; absent or null: every call creates a proof. */
  key?: string | null;
}

export interface CreatedProof {
  row: ProofRow;
  /** The proof's one-time credential, for its links. */
  token: string;
  /** The key was seen before: `row` is the proof its first request created, as it stands now. */
  repeated: boolean;
}

/** Inserts the proof with the given credential hash, on the executor given (a transaction when a key is sent). */
export type ProofInsert = (db: Kysely<AopdDatabase>, credentialHash: Buffer) => Promise<ProofRow>;

// Printable ASCII without spaces; 16 characters at least, since the key protects the repeated answer's links.
const keyShape = /^[\x21-\x7e]{16,255}$/;
const maxAttempts = 3;

/** Thrown inside the transaction when another request holds the key: leaves it, rolling the proof back. */
class KeyTaken extends Error {}

/**
 * Creates a request mutation's proof once per idempotency key. Without a key: a new proof with a
 * random credential, as always. With one: the first request of the caller with that key creates the
 * proof and records the key (its hash, the input's fingerprint, the proof, the credential's salt) in
 * the same transaction; a repeat within `lifetimeSeconds` with the same input gets that proof and the
 * same credential (derived again, see `idempotentCredential`), and with another input a
 * `BAD_USER_INPUT` naming `idempotencyKey`.
 *
 * Two concurrent requests with one key: both insert their proof, then the key; the primary key makes
 * the second `INSERT ... ON CONFLICT` wait for the first transaction, and once that commits the
 * second finds the key taken, rolls its proof back (nobody is told of it: its event is rolled back
 * too) and answers with the first one's proof. A key whose record expired is taken over.
 */
export async function createProofOnce(
  db: Kysely<AopdDatabase>,
  request: { mutation: IdempotentMutation; input: unknown; idempotency: IdempotencyRequest; lifetimeSeconds: number },
  insert: ProofInsert,
): Promise<CreatedProof> {
  // Appended last in the proof's transaction (after the key's row, whose insert may wait on another request).
  const recordRequest = (trx: Kysely<AopdDatabase>, row: ProofRow) =>
    appendAuditEntry(trx, {
      origin: request.idempotency.origin,
      action: "REQUESTED",
      proofId: row.id,
      details: { kind: row.kind, customerId: row.customer_id, asset: row.asset, address: row.address, depositAddress: row.deposit_address, amount: row.amount },
    });
  const key = request.idempotency.key;
  if (key === undefined || key === null) {
    const { token, hash } = newCallbackToken();
    const row = await inTransaction(db, async (trx) => {
      const inserted = await insert(trx, hash);
      await recordRequest(trx, inserted);
      return inserted;
    });
    return { row, token, repeated: false };
  }
  if (!keyShape.test(key)) {
    throw new UserInputError(
      "idempotencyKey",
      "must be 16 to 255 printable ASCII characters without spaces; send a random value such as a UUID, new for each new request.",
    );
  }
  const caller = request.idempotency.origin.actor;
  const scope = { caller_subject: caller.subject, caller_client: caller.client, key_hash: sha256(key) };
  const inputHash = sha256(`${request.mutation}\n${JSON.stringify(canonical(request.input))}`);
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    const existing = await db
      .selectFrom("aopd_idempotent_request")
      .select(["mutation", "input_hash", "proof_id", "credential_salt"])
      .where("caller_subject", "=", scope.caller_subject)
      .where("caller_client", "=", scope.caller_client)
      .where("key_hash", "=", scope.key_hash)
      .where("expires_at", ">", sql<Date>`now()`)
      .executeTakeFirst();
    if (existing) {
      if (existing.mutation !== request.mutation || !Buffer.from(existing.input_hash).equals(inputHash)) {
        throw new UserInputError(
          "idempotencyKey",
          `${JSON.stringify(key)} was already sent by this caller with ${existing.mutation === request.mutation ? "another input" : existing.mutation}; ` +
            "a key names one request: repeat that request's input exactly, or send a new key for a new request.",
        );
      }
      const row = await db.selectFrom("aopd_proof").selectAll().where("id", "=", existing.proof_id).executeTakeFirstOrThrow();
      const credential = idempotentCredential(key, existing.credential_salt);
      // The credential is derived, never stored: a mismatch means the proof was given a new link since, or a changed derivation (fail loudly).
      if (row.callback_token_hash === null || !Buffer.from(row.callback_token_hash).equals(credential.hash)) {
        if (await hasNewPortalLink(db, row.id)) {
          throw new ConflictError(
            `The proof this key created (${row.id}) was given a new portal link since (issuePortalLink), and the links of this request no longer work: issue a new link for it, or send a new key for a new request.`,
          );
        }
        throw new Error(`the credential derived for proof ${row.id} does not match its stored hash`);
      }
      return { row, token: credential.token, repeated: true };
    }
    const salt = randomBytes(32);
    const credential = idempotentCredential(key, salt);
    const created = await db
      .transaction()
      .execute(async (trx) => {
        const row = await insert(trx, credential.hash);
        const claimed = await trx
          .insertInto("aopd_idempotent_request")
          .values({
            ...scope,
            mutation: request.mutation,
            input_hash: inputHash,
            proof_id: row.id,
            credential_salt: salt,
            expires_at: sql<Date>`now() + make_interval(secs => ${request.lifetimeSeconds})`,
          })
          .onConflict((conflict) =>
            conflict
              .columns(["caller_subject", "caller_client", "key_hash"])
              .doUpdateSet((eb) => ({
                mutation: eb.ref("excluded.mutation"),
                input_hash: eb.ref("excluded.input_hash"),
                proof_id: eb.ref("excluded.proof_id"),
                credential_salt: eb.ref("excluded.credential_salt"),
                created_at: sql<Date>`now()`,
                expires_at: eb.ref("excluded.expires_at"),
              }))
              // Only an expired record is taken over; a live one means another request won.
              .where("aopd_idempotent_request.expires_at", "<=", sql<Date>`now()`),
          )
          .returning("proof_id")
          .executeTakeFirst();
        if (!claimed) throw new KeyTaken();
        await recordRequest(trx, row);
        return row;
      })
      .catch((error: unknown) => {
        if (error instanceof KeyTaken) return undefined;
        throw error;
      });
    if (created) return { row: created, token: credential.token, repeated: false };
  }
  throw new Error(`idempotency key neither free nor found after ${maxAttempts} attempts`);
}

/** Whether `issuePortalLink` replaced the proof's credential (each new link is on the audit trail). */
async function hasNewPortalLink(db: Kysely<AopdDatabase>, proofId: string): Promise<boolean> {
  const entry = await db
    .selectFrom("aopd_audit_entry")
    .select("proof_id")
    .where("proof_id", "=", proofId)
    .where("action", "=", "PORTAL_LINK_ISSUED")
    .executeTakeFirst();
  return entry !== undefined;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * The input as the fingerprint sees it: object keys sorted, absent and null fields alike (GraphQL
 * gives an omitted optional field and an explicit null the same meaning here).
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== null && field !== undefined);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, field]) => [name, canonical(field)]));
}
