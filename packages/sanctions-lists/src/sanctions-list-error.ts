/**
 * A list file that cannot be read as a sanctions list: what was wrong, and where. Nothing of the
 * list was imported when it is thrown (the importer reads the whole list before writing).
 */
export class SanctionsListError extends Error {
  readonly code = "INVALID_SANCTIONS_LIST";
  override readonly name = "SanctionsListError";
}
