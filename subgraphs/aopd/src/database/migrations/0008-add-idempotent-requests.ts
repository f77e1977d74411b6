import { sql, type Kysely } from "kysely";

/**
 * Idempotency keys of the three request mutations (`requestAoppProof`, `requestSatoshiProof`,
 * `requestMediaProof`): a client that retries after a lost answer sends the same key and gets the
 * proof its first request created instead of a second proof with a second live credential.
 *
 * - The primary key (caller subject, caller client, SHA-256 of the key) is what makes two
 *   concurrent requests with one key create one proof: the second `INSERT ... ON CONFLICT` waits
 *   for the first transaction and then finds its row, where a check-then-insert would race.
 * - `input_hash`: SHA-256 of the mutation's name and its input, so that a key reused for another
 *   request is refused instead of answered with the wrong proof.
 * - `credential_salt`: the proof's one-time credential is derived from the key and this salt
 *   (`idempotent-credential.ts`); the repeat derives it again and returns the same links, while the
 *   database still holds neither the credential nor the key, only their hashes.
 * - `expires_at`: the record answers repeats until then (`AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS`);
 *   an expired record is replaced by the next request with its key and pruned in the background.
 * - Deleting the proof deletes its record (ON DELETE CASCADE).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_idempotent_request (
      caller_subject text COLLATE "C" NOT NULL,
      caller_client text COLLATE "C" NOT NULL,
      key_hash bytea NOT NULL CHECK (octet_length(key_hash) = 32),
      mutation text NOT NULL CHECK (mutation IN ('requestAoppProof', 'requestSatoshiProof', 'requestMediaProof')),
      input_hash bytea NOT NULL CHECK (octet_length(input_hash) = 32),
      proof_id uuid NOT NULL REFERENCES aopd_proof (id) ON DELETE CASCADE,
      credential_salt bytea NOT NULL CHECK (octet_length(credential_salt) = 32),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      expires_at timestamptz(3) NOT NULL,
      PRIMARY KEY (caller_subject, caller_client, key_hash)
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_idempotent_request_expiry ON aopd_idempotent_request (expires_at)`.execute(db);
  await sql`CREATE INDEX aopd_idempotent_request_proof ON aopd_idempotent_request (proof_id)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE aopd_idempotent_request`.execute(db);
}
