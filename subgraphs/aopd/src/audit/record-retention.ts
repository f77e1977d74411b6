import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";

/**
 * The least `AOPD_RECORD_RETENTION_YEARS` production accepts: five years, the period the EU's
 * anti-money-laundering rules set for records of customer due diligence (Directive 2015/849,
 * article 40; Regulation 2024/1624, article 77), which the Transfer of Funds Regulation's records
 * follow. Outside production any whole number of years from 1 is accepted, for trials.
 */
export const minimumProductionRetentionYears = 5;

/** `AOPD_RECORD_RETENTION_YEARS`, checked: a whole number of years, at least 1, at least 5 in production. */
export function recordRetentionYearsFromEnv(env: NodeJS.ProcessEnv, production: boolean): number {
  const text = env.AOPD_RECORD_RETENTION_YEARS ?? "5";
  const years = /^[0-9]{1,3}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(years) || years < 1)
    throw new Error(`AOPD_RECORD_RETENTION_YEARS must be a whole number of years, at least 1; got ${JSON.stringify(text)}.`);
  if (production && years < minimumProductionRetentionYears) {
    throw new Error(
      `AOPD_RECORD_RETENTION_YEARS must be at least ${minimumProductionRetentionYears} in production (records of customer due diligence are kept five years); got ${years}.`,
    );
  }
  return years;
}

/**
 * Writes the retention in force where the database's delete guards read it (migration 0013), at
 * each start. Replicas of one deployment share one setting; should two disagree, the longer one
 * stands, so a replica started with a shorter value never shortens what another promised.
 */
export async function publishRecordRetention(db: Kysely<AopdDatabase>, years: number): Promise<void> {
  await sql`UPDATE aopd_record_retention SET years = greatest(years, ${years}) WHERE singleton`.execute(db);
}
