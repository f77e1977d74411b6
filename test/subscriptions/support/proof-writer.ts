import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { openDatabase, type AopdDatabase, type ProofRow } from "@compliance-graph/aopd/internals";
import { transfersForAddress } from "@compliance-graph/trpd";

export interface ProofWriter {
  /** Inserts a pending signature proof (the table's trigger records its event). */
  create(fields?: { customerId?: string; address?: string; comment?: string; message?: string }): Promise<ProofRow>;
  /** Changes a proof's status (the table's trigger records its event). */
  changeStatus(id: string, status: ProofRow["status"]): Promise<ProofRow>;
  /** Inserts, then rolls back: nothing may be delivered. */
  createRolledBack(fields?: { customerId?: string }): Promise<void>;
  close(): Promise<void>;
}

/** A fresh Bitcoin-looking address, so each proof has its own travel-rule transfers. */
export const randomAddress = () => `bc1q${randomBytes(19).toString("hex")}`;

/** trpd derives zero to two transfers from an address; an address with at least one. */
export function addressWithTransfers(): string {
  for (;;) {
    const address = randomAddress();
    if (transfersForAddress(address).length > 0) return address;
  }
}

/** The transfers trpd reports for an address, as a subscription selects them. */
export const expectedTransfers = (address: string) =>
  transfersForAddress(address).map(({ counterpartyVasp, direction, address: a }) => ({ counterpartyVasp, direction, address: a }));

class RolledBack extends Error {}

/** Writes with its own connection pool, like one more replica. */
export async function openProofWriter(databaseUrl: string): Promise<ProofWriter> {
  const database = await openDatabase({ databaseUrl, maxConnections: 4 });
  return { ...proofWriterOn(database.db), close: () => database.close() };
}

/**
 * Writes proofs through the data layer the way aopd's writers do. `db` may be a running replica's
 * (`RunningAopd.services.db`): the write goes through that replica's connections.
 */
export function proofWriterOn(db: Kysely<AopdDatabase>): ProofWriter {
  const insert = (customerId: string, address: string, comment: string | null, message: string) =>
    db
      .insertInto("aopd_proof")
      .values({ kind: "signature", status: "PENDING", customer_id: customerId, asset: "DTI4H95J0R2X", address, message, comment })
      .returningAll()
      .executeTakeFirstOrThrow();
  return {
    create: (fields = {}) =>
      insert(fields.customerId ?? "customer-1", fields.address ?? randomAddress(), fields.comment ?? null, fields.message ?? "I own this address."),
    changeStatus: (id, status) =>
      db.updateTable("aopd_proof").set({ status, updated_at: new Date() }).where("id", "=", id).returningAll().executeTakeFirstOrThrow(),
    createRolledBack: async (fields = {}) => {
      await db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto("aopd_proof")
            .values({
              kind: "signature",
              status: "PENDING",
              customer_id: fields.customerId ?? "customer-1",
              asset: "DTI4H95J0R2X",
              address: randomAddress(),
              message: "m",
            })
            .execute();
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
    },
    close: async () => {},
  };
}
