import { UserInputError } from "@compliance-graph/errors";

const maxTextLength = 2_000;

/**
 * A free text an officer writes for the record (a decision's reason text or comment, why a
 * decision is reopened or a proposal rejected, why a legal hold is placed or lifted): absent, or 1
 * to 2000 characters that are not all blank.
 */
export function optionalOfficerText(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.trim() === "") throw new UserInputError(field, "is blank; leave it out or write at least one character.");
  if (value.length > maxTextLength) throw new UserInputError(field, `has ${value.length} characters; at most ${maxTextLength} are allowed.`);
  return value;
}
