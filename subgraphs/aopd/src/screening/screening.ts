import type { ProofRow, ScreenedAddressForm, ScreeningStatus } from "../database/database-schema.js";
import type { ProviderIdentification } from "./screening-provider-client.js";

/** The list entry a LISTED proof's address matched. */
export interface ScreeningEntry {
  /** OFAC's asset code of the entry (`XBT`, `ETH`, `USDT`, ...). */
  asset: string;
  /** The address exactly as the list spells it. */
  address: string;
  /** The SDN entry's uid, when the list version was imported from OFAC's XML. */
  sdnUid: string | null;
  sdnName: string | null;
}

/** A proof's screening as the API shows it (`AopdScreening`). */
export interface Screening {
  status: ScreeningStatus;
  /** The list (`OFAC SDN`); null while NOT_SCREENED. */
  list: string | null;
  /** The list version (its publication date) that set this result; null while NOT_SCREENED. */
  listVersion: string | null;
  screenedAt: Date | null;
  matchedEntry: ScreeningEntry | null;
  /** Which of the proof's addresses matched: its own (`PROVEN_ADDRESS`) or a sibling its key controls; null unless LISTED. */
  matchedForm: ScreenedAddressForm | null;
  /** That address, as ours spells it; null unless LISTED. */
  matchedAddress: string | null;
}

type ScreeningColumns = Pick<
  ProofRow,
  | "screening_status"
  | "screening_list"
  | "screening_list_version"
  | "screened_at"
  | "screening_entry_asset"
  | "screening_entry_address"
  | "screening_entry_uid"
  | "screening_entry_name"
  | "screening_matched_form"
  | "screening_matched_address"
>;

/** The screening columns the API reads. */
export const screeningColumns = [
  "screening_status",
  "screening_list",
  "screening_list_version",
  "screened_at",
  "screening_entry_asset",
  "screening_entry_address",
  "screening_entry_uid",
  "screening_entry_name",
  "screening_matched_form",
  "screening_matched_address",
] as const satisfies readonly (keyof ScreeningColumns)[];

export function screeningOf(row: Partial<ScreeningColumns>): Screening {
  return {
    status: row.screening_status ?? "NOT_SCREENED",
    list: row.screening_list ?? null,
    listVersion: row.screening_list_version ?? null,
    screenedAt: row.screened_at ?? null,
    matchedEntry:
      row.screening_entry_asset && row.screening_entry_address
        ? {
            asset: row.screening_entry_asset,
            address: row.screening_entry_address,
            sdnUid: row.screening_entry_uid ?? null,
            sdnName: row.screening_entry_name ?? null,
          }
        : null,
    matchedForm: row.screening_matched_form ?? null,
    matchedAddress: row.screening_matched_address ?? null,
  };
}

/** The commercial provider's answer as the API shows it (`AopdProviderScreening`). */
export interface ProviderScreening {
  provider: string;
  status: "CLEAR" | "LISTED";
  screenedAt: Date;
  identifications: ProviderIdentification[];
}

/** The provider columns the API reads. */
export const providerScreeningColumns = [
  "provider_screening_status",
  "provider_screening_name",
  "provider_screened_at",
  "provider_identifications",
] as const satisfies readonly (keyof ProofRow)[];

export function providerScreeningOf(row: Partial<Pick<ProofRow, (typeof providerScreeningColumns)[number]>>): ProviderScreening | null {
  if (!row.provider_screening_status || !row.provider_screening_name || !row.provider_screened_at) return null;
  const identifications =
    typeof row.provider_identifications === "string" ? (JSON.parse(row.provider_identifications) as unknown) : row.provider_identifications;
  return {
    provider: row.provider_screening_name,
    status: row.provider_screening_status,
    screenedAt: new Date(row.provider_screened_at),
    identifications: Array.isArray(identifications) ? (identifications as ProviderIdentification[]) : [],
  };
}
