import type { AddressFormat, Assessment, ProofStatus } from "../database/database-schema.js";
import { bitcoinAddress, ethereumAddress, extendedPublicKey, lightningNodeId, solanaAddress, tronAddress } from "./demo-addresses.js";
import type { SeededRandom } from "./seeded-random.js";

/** A demo proof in the column order of `demoProofColumns`. */
export type DemoProofRow = (string | null)[];

export const demoProofColumns = [
  "id",
  "kind",
  "status",
  "created_at",
  "updated_at",
  "due_at",
  "customer_id",
  "asset",
  "address",
  "comment",
  "format",
  "message",
  "signature",
  "xpub",
  "amount",
  "deposit_address",
  "tx_id",
  "assessment",
] as const;

const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const assetWeights: [string, number][] = [
  [bitcoin, 40],
  [ether, 25],
  ["DTIRQWW6J6K0", 8],
  ["DTIHWN9T781J", 8],
  ["DTI20J63Z4N3", 8],
  ["DTI993D8X1FB", 6],
  ["DTIK1NS41N51", 3],
  ["DTINVVJ0PSWD", 2],
];
const bitcoinFormats: Exclude<AddressFormat, "ANY" | "STANDARD">[] = ["P2PKH", "P2SH", "P2WPKH", "P2WPKH", "P2WPKH", "P2WSH", "P2TR", "P2TR"];
const comments = [
  "Verified during onboarding",
  "Customer called support",
  "Second wallet of the customer",
  "Re-check after address change",
  "Hardware wallet",
  "Requested by the travel-rule team",
  "Withdrawal over threshold",
  '=HYPERLINK("http://example.test")',
];
const depositAddresses: Record<string, string> = {
  [bitcoin]: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
  [ether]: "0x00000000219ab540356cBB839Cbe05303d7705Fa",
};

// Demo timestamps are fixed, not relative to today, so the same seed always gives the same rows.
const firstCreatedAt = Date.UTC(2025, 0, 1);
const createdAtSpan = Date.UTC(2026, 10, 1) - firstCreatedAt;
const day = 86_400_000;

function weightedAsset(random: SeededRandom): string {
  let roll = random.int(100);
  for (const [code, weight] of assetWeights) {
    if (roll < weight) return code;
    roll -= weight;
  }
  return bitcoin;
}

function addressFor(random: SeededRandom, asset: string): { address: string; format: AddressFormat | null } {
  switch (asset) {
    case bitcoin: {
      const format = random.pick(bitcoinFormats);
      return { address: bitcoinAddress(random, format), format };
    }
    case ether:
    case "DTIRQWW6J6K0":
    case "DTIHWN9T781J":
      return { address: ethereumAddress(random), format: null };
    case "DTI20J63Z4N3":
      return { address: solanaAddress(random), format: null };
    case "DTI993D8X1FB":
      return { address: tronAddress(random), format: null };
    default:
      return { address: lightningNodeId(random), format: null };
  }
}

/**
 * One realistic demo proof: a mix of assets and address formats, many customers, both kinds and
 * every status, with kind-specific columns filled as a real proof of that status would have them.
 */
export function demoProofRow(random: SeededRandom, customerCount: number): DemoProofRow {
  const id = random.uuid();
  const createdAt = firstCreatedAt + random.int(createdAtSpan);
  const asset = weightedAsset(random);
  const { address, format } = addressFor(random, asset);
  const customerId = `CUST-${String(random.int(customerCount) + 1).padStart(6, "0")}`;
  const comment = random.next() < 0.35 ? random.pick(comments) : null;
  const satoshi = (asset === bitcoin || asset === ether) && random.next() < 0.3;
  const updatedAt = createdAt + random.int(3 * day);
  const iso = (ms: number) => new Date(ms).toISOString();
  if (satoshi) {
    const status = random.pick<ProofStatus>(["PENDING", "SUBMITTED", "VERIFIED", "VERIFIED", "VERIFIED", "FAILED", "EXPIRED"]);
    const assessment: Assessment | null = status === "VERIFIED" ? "VERIFIED" : status === "FAILED" ? "FAILED" : null;
    const base = asset === bitcoin ? 10_000n : 100_000_000_000_000n;
    const amount = (base + BigInt(random.int(1_000))).toString();
    const txId = status === "PENDING" || status === "EXPIRED" ? null : random.hex(32);
    return [
      id,
      "satoshi",
      status,
      iso(createdAt),
      iso(updatedAt),
      status === "PENDING" ? iso(createdAt + 2 * day) : null,
      customerId,
      asset,
      address,
      comment,
      null,
      null,
      null,
      null,
      amount,
      depositAddresses[asset] ?? address,
      txId,
      assessment,
    ];
  }
  const status = random.pick<ProofStatus>(["PENDING", "VERIFIED", "VERIFIED", "VERIFIED", "VERIFIED", "FAILED", "EXPIRED"]);
  const xpub = asset === bitcoin && random.next() < 0.25 ? extendedPublicKey(random) : null;
  const message = `I confirm that I control ${address} for ${customerId}. Nonce: ${random.hex(8)}`;
  const signature = status === "VERIFIED" ? Buffer.from(random.bytes(65)).toString("base64") : null;
  return [
    id,
    "signature",
    status,
    iso(createdAt),
    iso(updatedAt),
    status === "PENDING" ? iso(createdAt + 7 * day) : null,
    customerId,
    asset,
    address,
    comment,
    format,
    message,
    signature,
    xpub,
    null,
    null,
    null,
    null,
  ];
}
