import type { AopdMetrics } from "../aopd-metrics.js";
import type { BaseContext } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";
import type { Kysely } from "kysely";
import type pg from "pg";
import type { AopdConfig } from "../aopd-config.js";
import type { AopdDatabase } from "../database/database-schema.js";
import type { XpubDerivationSearch } from "../kinds/signature/xpub-derivation-search.js";
import type { PortalResources } from "../portal/load-portal-resources.js";
import type { ProofQueryLimits } from "../proofs/proof-query.js";
import type { ExportSlots } from "../export/export-slots.js";
import type { ReceiptSigner } from "../receipts/receipt-signer.js";

/** What every resolver of the subgraph gets: the services, built once, and the caller of this request. */
export interface AopdServices {
  db: Kysely<AopdDatabase>;
  /** The connection pool on a PostgreSQL server (none on PGlite): exports read their rows through COPY on it. */
  pool?: pg.Pool;
  config: AopdConfig;
  portal: PortalResources;
  limits: ProofQueryLimits;
  /** The xpub search of signature acceptance (see `XpubDerivationSearch`). */
  findXpubDerivation: XpubDerivationSearch;
  /** Bounds the exports running at once, per caller and per process. */
  exportSlots: ExportSlots;
  metrics: AopdMetrics;
  /** Signs proof receipts with the configured key (docs/receipts.md). */
  receiptSigner: ReceiptSigner;
}

export interface AopdContext extends BaseContext, AopdServices {
  identity: Identity;
  requestId: string;
  logger: Logger;
}
