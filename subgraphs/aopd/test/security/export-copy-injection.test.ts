import { defaultFilterLimits } from "@compliance-graph/filter";
import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWorkbook } from "@compliance-graph/test-kit";
import type { NewProofRow } from "../../src/database/database-schema.js";
import type { Database } from "../../src/database/open-database.js";
import { exportProofsAsXlsx } from "../../src/export/export-proofs-as-xlsx.js";
import { streamProofsAsXlsx } from "../../src/export/stream-proofs-as-xlsx.js";
import { selectProofs } from "../../src/proofs/proof-query.js";
import { openTestDatabase } from "../support/test-database.js";

/**
 * The attack: on a PostgreSQL server the XLSX export reads its rows with `COPY (SELECT ...) TO
 * STDOUT`, which takes no bound parameters, so every filter value is written into the statement as
 * a literal (`inlineQueryParameters`). Whoever may export (an officer, or anyone reaching the
 * download route) puts text into a string condition that ends the literal early and goes on in
 * SQL of its own: a condition that is always true, a second statement, a function with a side
 * effect, a different quoting (E'' strings, dollar quotes, Unicode escapes) or a comment that
 * swallows the rest. Each text below sits in every string condition of every string field; the
 * export must return exactly the rows the same filter returns with bound parameters (the rows
 * that hold that very text among them), and leave the table, the connection's settings and the
 * notification channel as they were. Both settings of `standard_conforming_strings` are attacked:
 * with it off, a backslash in a plain '' string escapes the quote that follows.
 */
const payloads = [
  "'",
  "''",
  "\\",
  "\\'",
  "\\\\'",
  "x' OR '1'='1",
  "' OR true --",
  "'; DROP TABLE aopd_proof; --",
  "'); CREATE TABLE pwned (); --",
  "') TO STDOUT; CREATE TABLE pwned (); COPY (SELECT 1) TO STDOUT; --",
  "'||pg_notify('pwned','injected')||'",
  "'||set_config('application_name','pwned',false)||'",
  "' OR (SELECT set_config('search_path','pwned',false)) IS NOT NULL OR '",
  "E'\\'' OR true --",
  "\\' OR true --",
  "$$ OR true --",
  "$tag$' OR true --$tag$",
  "$1",
  "$2::text",
  "U&'\\0027' OR true --",
  'U&"\\0027"',
  "\\u0027 OR true --",
  "\\x27 OR true",
  "/* ' */ OR true",
  "*/ OR true /*",
  "-- '",
  '"',
  '"; SELECT 1; --',
  "%_\\%",
  "a\nb\r\tc'",
  "ü💩\u202e'",
  ":name ? ;",
];

/** Matches exactly `text` as a LIKE pattern: its wildcards and escape taken literally. */
const exactPattern = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Each string field of `AopdProofFilterInput`, the column it reads and the kind its group requires. */
const stringFields = [
  { path: ["is", "any", "id"], column: "id" },
  { path: ["is", "any", "address"], column: "address" },
  { path: ["is", "any", "customerId"], column: "customer_id" },
  { path: ["is", "any", "asset"], column: "asset" },
  { path: ["is", "any", "comment"], column: "comment" },
  { path: ["is", "signature", "xpub", "xpub"], column: "xpub", kind: "signature" },
  { path: ["is", "satoshi", "txId"], column: "tx_id", kind: "satoshi" },
  { path: ["is", "satoshi", "depositAddress"], column: "deposit_address", kind: "satoshi" },
  { path: ["is", "media", "contentType"], column: "media_content_type", kind: "media" },
  { path: ["is", "media", "sha256"], column: "media_sha256", kind: "media" },
] as const;

type Row = Omit<NewProofRow, "id" | "created_at"> & { id: string; created_at: Date };

type Field = (typeof stringFields)[number];
type Mode = "matching" | "excluding";

/** Every condition that keeps the rows holding `text` in the field, or every one that drops them. */
const conditionOf = (mode: Mode, text: string) =>
  mode === "matching"
    ? { eq: text, in: [text, "unrelated"], like: exactPattern(text), ilike: exactPattern(text) }
    : { ne: text, notIn: [text], notIlike: exactPattern(text) };

/** The filter input with `conditionOf(mode, text)` on each of `fields`. */
function filterOf(fields: readonly Field[], mode: Mode, text: string): unknown {
  const filter: Record<string, unknown> = {};
  for (const field of fields) {
    let group = filter;
    for (const name of field.path.slice(0, -1)) group = (group[name] ??= {}) as Record<string, unknown>;
    group[field.path.at(-1)!] = conditionOf(mode, text);
  }
  return filter;
}

/** What that filter means, stated over the rows in memory: each field's group kind and its condition. */
function meets(row: Row, fields: readonly Field[], mode: Mode, text: string): boolean {
  return fields.every((field) => {
    if ("kind" in field && row.kind !== field.kind) return false;
    const value = (row as unknown as Record<string, unknown>)[field.column] ?? null;
    // Not a UUID, the text cannot equal an id: the compiler turns those conditions into `false` and drops `ne`/`notIn`.
    if (field.column === "id") return mode === "excluding";
    return mode === "matching" ? value === text : value !== null && value !== text;
  });
}

const fieldsNamed = (...names: string[]) => stringFields.filter((field) => names.includes(field.path.at(-1)!));
const anyFields = fieldsNamed("address", "customerId", "asset", "comment");
/** The filters of one text: each string field carries it, in every condition, in some filter. */
const attacks: { name: string; fields: readonly Field[]; mode: Mode }[] = [
  { name: "its signature proof", fields: [...anyFields, ...fieldsNamed("xpub")], mode: "matching" },
  { name: "its Satoshi proof", fields: [...anyFields, ...fieldsNamed("txId", "depositAddress")], mode: "matching" },
  { name: "no proof by id", fields: fieldsNamed("id"), mode: "matching" },
  { name: "no media proof", fields: fieldsNamed("contentType", "sha256"), mode: "matching" },
  { name: "every proof but its own", fields: [...fieldsNamed("id"), ...anyFields], mode: "excluding" },
  { name: "every other signature proof", fields: fieldsNamed("xpub"), mode: "excluding" },
  { name: "every other Satoshi proof", fields: fieldsNamed("txId", "depositAddress"), mode: "excluding" },
  { name: "the media proof", fields: fieldsNamed("contentType", "sha256"), mode: "excluding" },
];

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** For each text, a signature and a Satoshi proof holding it in each of their string columns; one media proof. */
function hostileRows(): Row[] {
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
  const rows: Row[] = payloads.flatMap((text, index): Row[] => [
    {
      id: uuid(2 * index + 1),
      created_at: at(2 * index),
      kind: "signature",
      status: "PENDING",
      customer_id: text,
      asset: text,
      address: text,
      comment: text,
      xpub: text,
    },
    {
      id: uuid(2 * index + 2),
      created_at: at(2 * index + 1),
      kind: "satoshi",
      status: "SUBMITTED",
      customer_id: text,
      asset: text,
      address: text,
      comment: text,
      amount: "1000",
      deposit_address: text,
      tx_id: text,
    },
  ]);
  rows.push({
    id: uuid(9_999),
    created_at: at(9_999),
    kind: "media",
    status: "SUBMITTED",
    customer_id: "media customer",
    asset: "DTI4H95J0R2X",
    address: "media address",
    comment: "media comment",
    media_content_type: "image/png",
    media_byte_size: 10,
    media_sha256: "a".repeat(64),
    media_uploaded_at: at(9_999),
  });
  return rows;
}

describe.each(["on", "off"])("the COPY export's filter literals (standard_conforming_strings %s)", (conforming) => {
  let database: Database;
  let pool: pg.Pool;
  let listener: pg.Client;
  const notifications: string[] = [];
  const rows = hostileRows();
  const byExportOrder = [...rows].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));

  beforeAll(async () => {
    const opened = await openTestDatabase("postgres", `copyinjection${conforming}`);
    database = opened;
    await database.db.insertInto("aopd_proof").values(rows).execute();
    // One connection, so that a setting an injection changed would still be there to see.
    pool = new pg.Pool({ connectionString: opened.databaseUrl, max: 1, options: `-c standard_conforming_strings=${conforming}` });
    listener = new pg.Client({ connectionString: opened.databaseUrl });
    await listener.connect();
    listener.on("notification", (message) => notifications.push(message.payload ?? ""));
    await listener.query("LISTEN pwned");
  });
  afterAll(async () => {
    await listener?.end();
    await pool?.end();
    await database?.close();
  });

  /** The ids the export writes, in its order (the ID column, found by its header). */
  const exportedIds = async (filter: unknown): Promise<string[]> => {
    const { file } = await exportProofsAsXlsx(database.db, { filter, limits: defaultFilterLimits, maxRows: 1_000, assetNames: new Map(), pool });
    const [sheet] = readWorkbook(file);
    const idColumn = sheet!.rows[0]!.findIndex((cell) => cell?.v === "ID");
    return sheet!.rows.slice(1).map((row) => String(row[idColumn]?.v));
  };
  /** What the same filter means with bound parameters. */
  const boundIds = async (filter: unknown): Promise<string[]> =>
    (await selectProofs(database.db, filter, undefined, defaultFilterLimits).execute()).map((row) => row.id);
  const state = async () => {
    const table = await database.db
      .selectFrom("aopd_proof")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    const { rows: settings } = await pool.query<{ application_name: string; search_path: string }>(
      "SELECT current_setting('application_name') AS application_name, current_setting('search_path') AS search_path",
    );
    const { rows: pwned } = await pool.query("SELECT relname FROM pg_class WHERE relname LIKE 'pwned%'");
    return { rows: Number(table.count), settings: settings[0], pwned };
  };

  it.each(payloads.map((text) => ({ text })))("exports exactly the matching proofs for $text", async ({ text }) => {
    notifications.length = 0;
    const before = await state();
    for (const attack of attacks) {
      const filter = filterOf(attack.fields, attack.mode, text);
      const expected = byExportOrder.filter((row) => meets(row, attack.fields, attack.mode, text)).map((row) => row.id);
      expect(await exportedIds(filter), attack.name).toEqual(expected);
      expect(await boundIds(filter), attack.name).toEqual(expected);
      // Not vacuous: the filters that name the text's own proofs find them.
      if (attack.mode === "matching" && attack.fields.length > 2) expect(expected).toHaveLength(1);
    }
    expect(await state()).toEqual(before);
    // Nothing was notified before this end marker, sent after the exports committed.
    const end = `end of ${JSON.stringify(text)}`;
    const arrived = new Promise<void>((resolve) => {
      const onMessage = (message: pg.Notification) => {
        if (message.payload !== end) return;
        listener.off("notification", onMessage);
        resolve();
      };
      listener.on("notification", onMessage);
    });
    await pool.query("SELECT pg_notify('pwned', $1)", [end]);
    await arrived;
    expect(notifications).toEqual([end]);
  });

  it("refuses a NUL character in any string condition by name, before the first statement", async () => {
    for (const operator of ["eq", "ne", "in", "notIn", "like", "ilike", "notIlike"] as const) {
      const value = "a\u0000' OR true --";
      const filter = { is: { any: { address: { [operator]: operator === "in" || operator === "notIn" ? ["b", value] : value } } } };
      let opened = false;
      const idle = pool.idleCount;
      const error = await streamProofsAsXlsx(database.db, { filter, limits: defaultFilterLimits, maxRows: 1_000, assetNames: new Map(), pool }, () => {
        opened = true;
        return new Writable({ write: (_chunk, _encoding, done) => done() });
      }).catch((caught: unknown) => caught);
      const field = `filter.is.any.address.${operator}${operator === "in" || operator === "notIn" ? ".1" : ""}`;
      expect(error).toMatchObject({ code: "BAD_USER_INPUT", field, message: `${field}: must not contain a NUL character (U+0000).` });
      expect(opened).toBe(false);
      // The pool's one connection was not taken: no statement was sent.
      expect([pool.totalCount - pool.idleCount, pool.idleCount]).toEqual([0, idle]);
    }
  });
});
