import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import * as createProofTable from "./migrations/0001-create-proof-table.js";
import * as addAoppCallback from "./migrations/0002-add-aopp-callback.js";
import * as addPortalSubmissions from "./migrations/0003-add-portal-submissions.js";
import * as addProofEventLog from "./migrations/0004-add-proof-event-log.js";
import * as addMediaProofs from "./migrations/0005-add-media-proofs.js";
import * as addChainChecks from "./migrations/0006-add-chain-checks.js";
import * as addDepositWatch from "./migrations/0007-add-deposit-watch.js";
import * as addIdempotentRequests from "./migrations/0008-add-idempotent-requests.js";
import * as addProofDecisions from "./migrations/0009-add-proof-decisions.js";
import * as addFourEyes from "./migrations/0010-add-four-eyes.js";
import * as addSignatureScheme from "./migrations/0011-add-signature-scheme.js";
import * as addAuditTrail from "./migrations/0012-add-audit-trail.js";
import * as addLegalHoldAndRetention from "./migrations/0013-add-legal-hold-and-retention.js";
import * as addChainFindings from "./migrations/0014-add-chain-findings.js";
import * as addContractWalletScheme from "./migrations/0015-add-contract-wallet-scheme.js";
import * as addSanctionsScreening from "./migrations/0016-add-sanctions-screening.js";
import * as addProviderScreening from "./migrations/0017-add-provider-screening.js";
import * as chainAuditEntriesAfterCommit from "./migrations/0018-chain-audit-entries-after-commit.js";
import * as authenticateAuditEntries from "./migrations/0019-authenticate-audit-entries.js";
import * as addAuditMerkleTree from "./migrations/0020-add-audit-merkle-tree.js";
import * as addReopenProposals from "./migrations/0021-add-reopen-proposals.js";
import * as addReceiptStatus from "./migrations/0022-add-receipt-status.js";
import * as addKeySiblingScreening from "./migrations/0023-add-key-sibling-screening.js";
import * as addScriptSignatures from "./migrations/0024-add-script-signatures.js";
import * as addSignInMessages from "./migrations/0025-add-sign-in-messages.js";
import * as addScreeningReviews from "./migrations/0026-add-screening-reviews.js";
import * as allowSingleKeyPsbtProofs from "./migrations/0027-allow-single-key-psbt-proofs.js";

/**
 * The migrations, in order. Listed here rather than read from a folder so that they are part of
 * the module graph (no file-system lookups at start-up, nothing to forget when packaging).
 */
export const aopdMigrations: Readonly<Record<string, Migration>> = {
  "0001-create-proof-table": createProofTable,
  "0002-add-aopp-callback": addAoppCallback,
  "0003-add-portal-submissions": addPortalSubmissions,
  "0004-add-proof-event-log": addProofEventLog,
  "0005-add-media-proofs": addMediaProofs,
  "0006-add-chain-checks": addChainChecks,
  "0007-add-deposit-watch": addDepositWatch,
  "0008-add-idempotent-requests": addIdempotentRequests,
  "0009-add-proof-decisions": addProofDecisions,
  "0010-add-four-eyes": addFourEyes,
  "0011-add-signature-scheme": addSignatureScheme,
  "0012-add-audit-trail": addAuditTrail,
  "0013-add-legal-hold-and-retention": addLegalHoldAndRetention,
  "0014-add-chain-findings": addChainFindings,
  "0015-add-contract-wallet-scheme": addContractWalletScheme,
  "0016-add-sanctions-screening": addSanctionsScreening,
  "0017-add-provider-screening": addProviderScreening,
  "0018-chain-audit-entries-after-commit": chainAuditEntriesAfterCommit,
  "0019-authenticate-audit-entries": authenticateAuditEntries,
  "0020-add-audit-merkle-tree": addAuditMerkleTree,
  "0021-add-reopen-proposals": addReopenProposals,
  "0022-add-receipt-status": addReceiptStatus,
  "0023-add-key-sibling-screening": addKeySiblingScreening,
  "0024-add-script-signatures": addScriptSignatures,
  "0025-add-sign-in-messages": addSignInMessages,
  "0026-add-screening-reviews": addScreeningReviews,
  "0027-allow-single-key-psbt-proofs": allowSingleKeyPsbtProofs,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return { ...aopdMigrations };
  }
}

/** Kysely's migrator over `aopdMigrations`, for `migrateToLatest` and for tests of one migration's change to existing rows. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function aopdMigrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: new StaticMigrationProvider(), migrationTableName: "aopd_migration", migrationLockTableName: "aopd_migration_lock" });
}

/**
 * Applies every pending migration. Kysely's migrator takes a lock, so replicas starting together
 * apply each migration once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await aopdMigrator(db).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}
