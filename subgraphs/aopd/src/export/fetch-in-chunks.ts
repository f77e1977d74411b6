import { CompiledQuery, type Compilable, type Kysely } from "kysely";

/**
 * Reads the rows of `query` in chunks of `chunkSize` through a server-side cursor and hands each
 * chunk to `onChunk` before the next is fetched, so that only one chunk is ever in memory however
 * many rows match. A cursor (DECLARE ... FETCH FORWARD) rather than the driver's own streaming
 * because it works the same on the `pg` pool and on embedded PGlite, whose dialect cannot stream.
 *
 * `db` must be a transaction: a cursor without HOLD lives only as long as its transaction, which
 * also gives every chunk the same snapshot.
 *
 * @returns the number of rows read.
 */
export async function fetchInChunks<R>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  query: Compilable<R>,
  chunkSize: number,
  onChunk: (rows: R[]) => Promise<void> | void,
): Promise<number> {
  if (!db.isTransaction) throw new Error("fetchInChunks needs a transaction: its cursor lives only inside one.");
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) throw new Error(`The chunk size must be a positive integer; got ${chunkSize}.`);
  const compiled = query.compile();
  // The name is fixed: the cursor is closed before this returns, and a transaction is one caller's.
  await db.executeQuery(CompiledQuery.raw(`DECLARE aopd_chunked_cursor NO SCROLL CURSOR FOR ${compiled.sql}`, [...compiled.parameters]));
  const fetch = CompiledQuery.raw(`FETCH FORWARD ${chunkSize} FROM aopd_chunked_cursor`);
  // The next chunk is asked for before the current one is handed on, so that the database
  // produces it while this process works on the current one.
  let next: Promise<{ rows: R[] }> | undefined = db.executeQuery<R>(fetch);
  let total = 0;
  try {
    while (next) {
      const { rows }: { rows: R[] } = await next;
      next = rows.length === chunkSize ? db.executeQuery<R>(fetch) : undefined;
      total += rows.length;
      if (rows.length > 0) await onChunk(rows);
    }
  } finally {
    // When onChunk fails, a fetch may still be under way; its outcome no longer matters.
    next?.catch(() => undefined);
  }
  await db.executeQuery(CompiledQuery.raw("CLOSE aopd_chunked_cursor"));
  return total;
}
