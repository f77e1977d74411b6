import { randomUUID } from "node:crypto";
import { ConflictError, NotFoundError, UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { appendDecision, type DecisionRequest } from "./decide-proof.js";

/**
 * The first of two officers decides a proof whose kind needs four eyes: the decision is recorded
 * as a proposal and the proof stays SUBMITTED until a second officer confirms or rejects it
 * (settle-proposal.ts). The UPDATE takes the proof only while it has no proposal, so of two
 * officers proposing at once one wins and the other is told a proposal is waiting.
 */
export async function proposeDecision(db: Kysely<AopdDatabase>, request: DecisionRequest): Promise<ProofRow> {
  if (!isUuid(request.id)) throw new NotFoundError("The proof", request.id);
  const id = request.id.toLowerCase();
  const proposalId = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("aopd_proof")
      .set({ proposal_id: proposalId, updated_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where("kind", "=", request.kind)
      .where("status", "=", "SUBMITTED")
      .where("proposal_id", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const current = await trx.selectFrom("aopd_proof").select(["kind", "status", "proposal_id"]).where("id", "=", id).executeTakeFirst();
      if (!current) throw new NotFoundError("The proof", request.id);
      if (current.kind !== request.kind) throw new UserInputError("id", `names a ${current.kind} proof; only ${request.kind} proofs can be assessed here.`);
      if (current.status !== "SUBMITTED")
        throw new ConflictError(`The proof is ${current.status}; it can be assessed only when SUBMITTED.`, { status: current.status });
      throw new ConflictError("The proof has a proposed decision awaiting a second officer; confirm or reject that one first.", { status: current.status });
    }
    await appendDecision(trx, { ...request, id: proposalId, proofId: row.id, action: "PROPOSED" });
    return row;
  });
}
