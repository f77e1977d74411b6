import { sql, type Kysely } from "kysely";

/**
 * ERC-6492 (issue 39): a counterfactual smart account's wrapped signature, checked by the
 * deployless validator call, keeps the scheme `erc6492` and, as `erc1271`, the block of the check.
 *
 * A message that says where it came from (issue 39): each signature proof gets a single-use
 * sign-in nonce, the one its EIP-4361 (Sign-In with Ethereum) or CAIP-122 message names
 * (kinds/signature/sign-in-message.ts). Unique, so a nonce names exactly one proof and a signed
 * sign-in message can be refused on any other. `signed_message` keeps the sign-in message a
 * verified signature was made over (null when it was over `message`, the AOPP message), so the
 * stored signature can always be verified again, and its being set is what marks the nonce used.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_scheme_check,
      ADD CONSTRAINT aopd_proof_signature_scheme_check
        CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'bip322-script', 'psbt', 'eip191', 'ed25519', 'tip191', 'erc1271', 'erc6492')),
      DROP CONSTRAINT aopd_proof_contract_check_block,
      ADD CONSTRAINT aopd_proof_contract_check_block CHECK (COALESCE(signature_scheme IN ('erc1271', 'erc6492'), false) = (contract_check_block_height IS NOT NULL)),
      ADD COLUMN signin_nonce text UNIQUE,
      ADD COLUMN signed_message text,
      ADD CONSTRAINT aopd_proof_signed_message CHECK (signed_message IS NULL OR (signin_nonce IS NOT NULL AND signature IS NOT NULL))
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE aopd_proof SET signature_scheme = NULL, contract_check_block_height = NULL WHERE signature_scheme = 'erc6492'
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_contract_check_block,
      ADD CONSTRAINT aopd_proof_contract_check_block CHECK ((signature_scheme IS NOT DISTINCT FROM 'erc1271') = (contract_check_block_height IS NOT NULL)),
      DROP CONSTRAINT aopd_proof_signature_scheme_check,
      ADD CONSTRAINT aopd_proof_signature_scheme_check
        CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'bip322-script', 'psbt', 'eip191', 'ed25519', 'tip191', 'erc1271')),
      DROP CONSTRAINT aopd_proof_signed_message,
      DROP COLUMN signed_message,
      DROP COLUMN signin_nonce
  `.execute(db);
}
