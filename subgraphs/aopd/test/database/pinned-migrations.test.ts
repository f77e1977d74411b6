import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { aopdMigrations } from "../../src/database/migrate-to-latest.js";

const folder = new URL("../../src/database/migrations/", import.meta.url);

/**
 * The SHA-256 of each migration's text as it was written. A migration that has run on a database
 * is history: changing its file changes nothing there, but makes a new database differ from an old
 * one. So its text is pinned here; a change of what a migration did is a new migration, and a new
 * migration adds its line here (`sha256sum` of the file, line ends as LF).
 */
const pinned: Record<string, string> = {
  "0001-create-proof-table.ts": "88b2c7414086cbdd20ed44e81bee21353fbf990a09a56495fe73c4d7ec0b46a6",
  "0002-add-aopp-callback.ts": "4a26e0cc213aa330e58e944a41a6aca2bbabcdac7223a9ebd84634651a256b7e",
  "0003-add-portal-submissions.ts": "ae06b4c9b8ce4da8a92ca0888c574055285bc37c1c68ce2504148d688c7b7fda",
  "0004-add-proof-event-log.ts": "eb4975cbe9992c98d228e0c0dc28bcaef1058053f63fd14ac85258dc58831f97",
  "0005-add-media-proofs.ts": "e9478639800152c492cf65182fb214c38828ebe46f3ec130df764374b66cc393",
  "0006-add-chain-checks.ts": "38cd44cb88545ab9f59d57a5ed3ef0be4922cb5e0c2aac47628a2d780a2134b8",
  "0007-add-deposit-watch.ts": "a1d97d09649aee158f242b1a2eadf79f589f2d6bf96ab94c19bd30c8ecab9682",
  "0008-add-idempotent-requests.ts": "da78de43cd64dc6ef0a4f7ec3c0922e405eecf0ec1836754e69fdab97a7800d6",
  "0009-add-proof-decisions.ts": "9e2881408806c337349b0a52b5770068f52ff7b7a0e3df9cd9c7a8dc6a6f8123",
  "0010-add-four-eyes.ts": "35adbd0eb8f9c89b4fd5ba524b963a16dd423aa11e829daacf9d446ed59e58a2",
  "0011-add-signature-scheme.ts": "64fd684f8eced8eafaad709b963c77dc0a052d3ff294fc21ad4aacfc1e859904",
  "0012-add-audit-trail.ts": "594e90011c337aa294eb1923ac6846c3b2a43c4467a38ddb6b8441d815885f05",
  "0013-add-legal-hold-and-retention.ts": "51de70cbe2d9e86e238a7ea94d402c91aed0496d6c1c907ecb68b53f85ec7d41",
  "0014-add-chain-findings.ts": "cf3078230b1716eace8915c5480de9b5c3f7b02750bb5ae4d5fc02b95476821f",
  "0015-add-contract-wallet-scheme.ts": "6c362ea97c443f1dc258e14127836656a515d2d60ad1046952bb9ae4f1f6eac5",
  "0016-add-sanctions-screening.ts": "bec70138b09bd1fa50c33e5febb029aeabeb2236b7e76d5700805d19f3e049d8",
  "0017-add-provider-screening.ts": "f1de213535b776f260563e5378927747f96153bce5ba9481180ec5b3e09cf2c2",
  "0018-chain-audit-entries-after-commit.ts": "981a6a1673c0304f0f8e7038f738942eba68998b80248213abac55618f4417db",
  "0019-authenticate-audit-entries.ts": "bcb66631bb1e9cee64086020b9cffa08c7acc8bab659abad52c2f39be0fdf43b",
  "0020-add-audit-merkle-tree.ts": "73cd729c63d031a90776de45f6c9889877c8244fa2e5d84c7da20d749f57f1d0",
  "0021-add-reopen-proposals.ts": "9ea9497057a8f7788e353612c3f056e35e998e16b3d850bec02fd4aee40d0dc8",
  "0022-add-receipt-status.ts": "18f452333583a9e7094f9f3cb6668dc3e0709c98dc4232299a8f173997f888f6",
  "0023-add-key-sibling-screening.ts": "6aabef79a570dc2a328ec7e012213f4c55a0f7e58bb7390701a86026c3442b6c",
  "0024-add-script-signatures.ts": "4d3e3a2b7f00ee233915b3cc88f99badd456f82bc33aeb1c0e4172140bd2e144",
  "0025-add-sign-in-messages.ts": "f068bef1a59a43fc117c52cdb2553d8016f46ba08ae3e1aef5aa7da7802141ee",
  "0026-add-screening-reviews.ts": "ed96315173c67f4ffc0189f4b537432c01d15ebf637a612106ec0b7804ef6565",
  "0027-allow-single-key-psbt-proofs.ts": "78fc38d43f02ea35cc93a19ea80a8e8c1f6b7c556d7a932eb5bcb1f65433e081",
};

const files = readdirSync(folder)
  .filter((name) => name.endsWith(".ts"))
  .sort();
const textOf = (name: string) => readFileSync(new URL(name, folder), "utf8").replace(/\r\n/g, "\n");

describe("the migrations as they were written", () => {
  it("pins every migration file, and every migration aopd runs has a file", () => {
    expect(files).toEqual(Object.keys(pinned).sort());
    expect(Object.keys(aopdMigrations).map((name) => `${name}.ts`)).toEqual(files);
  });

  it.each(files)("%s keeps its text", (name) => {
    expect(createHash("sha256").update(textOf(name), "utf8").digest("hex")).toBe(pinned[name]);
  });

  it.each(files)("%s imports no live code of aopd (only Kysely, packages' data and earlier migrations)", (name) => {
    const imported = [...textOf(name).matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]!);
    for (const path of imported) expect(path === "kysely" || path.startsWith("@compliance-graph/") || /^\.\/\d{4}-[a-z0-9-]+\.js$/.test(path)).toBe(true);
  });
});
