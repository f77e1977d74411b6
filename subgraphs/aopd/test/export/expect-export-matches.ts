import { expect } from "vitest";
import { excelNumberToIso, type ReadCell, type ReadSheet } from "@compliance-graph/test-kit";

interface DecisionJson {
  decidedAt: string;
  reason: string | null;
  reasonText: string | null;
  comment: string | null;
  decider: { subject: string; username: string | null; client: string };
}

/** A proof as `proofs` returns it over GraphQL with every field of every kind asked for. */
export type ProofJson = Record<string, string | null | undefined> & {
  __typename: string;
  id: string;
  satoshiDecision?: DecisionJson | null;
  mediaDecision?: DecisionJson | null;
  screening?: ScreeningJson;
};

interface ScreeningJson {
  status: string;
  list: string | null;
  listVersion: string | null;
  screenedAt: string | null;
  matchedEntry: { asset: string; address: string; sdnUid: string | null; sdnName: string | null } | null;
}

const decisionFields = "decidedAt reason reasonText comment decider { subject username client }";

/**
 * The proof fields to ask `proofs` for, so that a test can state every cell of the export. All but
 * `transactionSenders`: a list field costs 10 rows per proof, too much for a page of every proof;
 * its cell is expected empty here (no seeded proof has been seen on chain) and is checked with
 * real chain findings in test/chain/chain-findings.test.ts.
 */
export const everyProofField = `__typename id createdAt updatedAt address customerId asset comment status dueAt
  screening { status list listVersion screenedAt matchedEntry { asset address sdnUid sdnName } }
  ... on AopdSignatureProof { format message signature xpub }
  ... on AopdSatoshiProof { amount senderAddress depositAddress txId assessment blockHeight blockHash confirmations amountReceived amountReceivedUnits failureReason satoshiDecision: decision { ${decisionFields} } }
  ... on AopdMediaProof { mediaAssessment: assessment contentType byteSize sha256 uploadedAt mediaDecision: decision { ${decisionFields} } }`;

/** The documented columns (docs/xlsx-export.md), stated here on their own rather than imported from the writer. */
export const documentedHeaders = [
  "ID",
  "Kind",
  "Created (UTC)",
  "Updated (UTC)",
  "Customer ID",
  "Asset (DTI)",
  "Asset name",
  "Address",
  "Address format",
  "Status",
  "Comment",
  "Xpub",
  "Message",
  "Signature",
  "Amount (lowest denomination)",
  "Sender address",
  "Deposit address",
  "Transaction ID",
  "Due (UTC)",
  "Assessment",
  "Media type",
  "Media size (bytes)",
  "Media SHA-256",
  "Media uploaded (UTC)",
  "Decided (UTC)",
  "Decided by",
  "Decider subject",
  "Decider client",
  "Decision reason",
  "Decision reason text",
  "Decision comment",
  "Block height",
  "Block hash",
  "Confirmations",
  "Amount received (lowest denomination)",
  "Amount received (units)",
  "Transaction senders",
  "Chain check failure",
  "Screening",
  "Screening list",
  "Screening list version",
  "Screened (UTC)",
  "Listed entry asset",
  "Listed entry address",
  "Listed entry SDN uid",
  "Listed entry name",
];

type Expected = { text: string } | { date: string } | null;

/** The documented substitute (docs/xlsx-export.md) for characters XML 1.0 cannot carry, stated here on its own. */
// eslint-disable-next-line no-control-regex
const unwritable = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function expectedCells(proof: ProofJson, assetNames: Map<string, string>): Expected[] {
  const text = (value: string | null | undefined): Expected =>
    value === null || value === undefined || value === "" ? null : { text: value.replace(unwritable, "\ufffd") };
  const date = (value: string | null | undefined): Expected => (value ? { date: value } : null);
  const decision = proof.satoshiDecision ?? proof.mediaDecision ?? null;
  return [
    text(proof.id),
    text({ AopdSignatureProof: "signature", AopdSatoshiProof: "satoshi", AopdMediaProof: "media" }[proof.__typename]),
    date(proof.createdAt),
    date(proof.updatedAt),
    text(proof.customerId),
    text(proof.asset),
    text(assetNames.get(proof.asset as string)),
    text(proof.address),
    text(proof.format),
    text(proof.status),
    text(proof.comment),
    text(proof.xpub),
    text(proof.message),
    text(proof.signature),
    text(proof.amount),
    text(proof.senderAddress),
    text(proof.depositAddress),
    text(proof.txId),
    date(proof.dueAt),
    text(proof.assessment ?? proof.mediaAssessment),
    text(proof.contentType),
    text(proof.byteSize === null || proof.byteSize === undefined ? null : String(proof.byteSize)),
    text(proof.sha256),
    date(proof.uploadedAt),
    date(decision?.decidedAt),
    text(decision ? (decision.decider.username ?? decision.decider.subject) : null),
    text(decision?.decider.subject),
    text(decision?.decider.client),
    text(decision?.reason),
    text(decision?.reasonText),
    text(decision?.comment),
    text(proof.blockHeight === null || proof.blockHeight === undefined ? null : String(proof.blockHeight)),
    text(proof.blockHash),
    text(proof.confirmations === null || proof.confirmations === undefined ? null : String(proof.confirmations)),
    text(proof.amountReceived),
    text(proof.amountReceivedUnits),
    text(proof.transactionSenders === null || proof.transactionSenders === undefined ? null : (proof.transactionSenders as unknown as string[]).join(", ")),
    text(proof.failureReason),
    text(proof.screening?.status),
    text(proof.screening?.list),
    text(proof.screening?.listVersion),
    date(proof.screening?.screenedAt),
    text(proof.screening?.matchedEntry?.asset),
    text(proof.screening?.matchedEntry?.address),
    text(proof.screening?.matchedEntry?.sdnUid),
    text(proof.screening?.matchedEntry?.sdnName),
  ];
}

const maxCell = 32_767;
const marker = "… [truncated]";

function expectCell(cell: ReadCell | null, expected: Expected, where: string): void {
  if (expected === null) {
    expect(cell === null || cell.t === "z" || (cell.t === "n" && cell.v === undefined), `${where}: empty`).toBe(true);
    return;
  }
  expect(cell, where).not.toBeNull();
  // No cell of an export is ever a formula, whatever its text.
  expect(cell!.f, `${where}: formula`).toBeUndefined();
  if ("date" in expected) {
    expect(cell!.t, `${where}: type`).toBe("n");
    expect(cell!.z, `${where}: number format`).toBe("yyyy-mm-dd hh:mm:ss.000");
    expect(excelNumberToIso(cell!.v as number), where).toBe(new Date(expected.date).toISOString());
    return;
  }
  expect(cell!.t, `${where}: type`).toBe("s");
  if (expected.text.length <= maxCell) {
    expect(cell!.v, where).toBe(expected.text);
    return;
  }
  // Cut to Excel's limit, the end marked, and nothing else changed.
  const value = cell!.v as string;
  expect(value.length, `${where}: length`).toBeLessThanOrEqual(maxCell);
  expect(value.endsWith(marker), `${where}: marker`).toBe(true);
  expect(expected.text.startsWith(value.slice(0, -marker.length)), `${where}: prefix`).toBe(true);
  expect(value.length, `${where}: cut no more than a surrogate pair needs`).toBeGreaterThanOrEqual(maxCell - 1);
}

/**
 * Checks an export cell by cell against the proofs `proofs(filter)` returned: every sheet opens
 * with the header row, the data rows of all sheets together are the proofs in order, and every
 * cell has the documented type, format and value.
 */
export function expectExportMatches(sheets: ReadSheet[], proofs: ProofJson[], assetNames: Map<string, string>, rowsPerSheet = 1_048_575): void {
  expect(sheets.length).toBe(Math.max(1, Math.ceil(proofs.length / rowsPerSheet)));
  const dataRows: (ReadCell | null)[][] = [];
  sheets.forEach((sheet, index) => {
    expect(sheet.name).toBe(index === 0 ? "Proofs" : `Proofs ${index + 1}`);
    expect(sheet.rows[0]?.map((cell) => cell?.v)).toEqual(documentedHeaders);
    dataRows.push(...sheet.rows.slice(1).filter((row) => row.some((cell) => cell !== null && cell.v !== undefined)));
  });
  expect(dataRows.length).toBe(proofs.length);
  proofs.forEach((proof, r) => {
    const expected = expectedCells(proof, assetNames);
    const row = dataRows[r] as (ReadCell | null)[];
    expected.forEach((cell, c) => expectCell(row[c] ?? null, cell, `row ${r + 1} (${proof.id}) column ${documentedHeaders[c]}`));
    expect(row.slice(expected.length).every((cell) => cell === null || cell.v === undefined)).toBe(true);
  });
}
