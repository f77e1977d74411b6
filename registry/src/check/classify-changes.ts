import { CriticalityLevel, diff, type Change } from "@graphql-inspector/core";
import type { GraphQLSchema } from "graphql";

export type ChangeLevel = "breaking" | "dangerous" | "safe";

/** One change of the schema clients see, as `@graphql-inspector/core` classifies it. */
export interface ClassifiedChange {
  level: ChangeLevel;
  /** Its kind (`FIELD_REMOVED`, `ENUM_VALUE_ADDED`, ...). */
  type: string;
  message: string;
  /** The schema coordinate changed (`Type`, `Type.field`, `Type.field.argument`, `Enum.VALUE`). */
  coordinate?: string;
  /** The coordinate whose recorded use this change breaks: the field a required argument was added to, else the coordinate itself. */
  usageCoordinate?: string;
}

const levels: Record<CriticalityLevel, ChangeLevel> = {
  [CriticalityLevel.Breaking]: "breaking",
  [CriticalityLevel.Dangerous]: "dangerous",
  [CriticalityLevel.NonBreaking]: "safe",
};

/**
 * Classifies every change from the served API schema to the candidate's, with GraphQL Inspector's
 * rules (the library Hive's registry uses): well kept, and its paths are the coordinates the
 * gateways record, so a breaking change is looked up in usage as it stands.
 */
export async function classifyChanges(served: GraphQLSchema, candidate: GraphQLSchema): Promise<ClassifiedChange[]> {
  const changes = await diff(served, candidate);
  return changes.map((change) => classified(change));
}

function classified(change: Change): ClassifiedChange {
  const result: ClassifiedChange = { level: levels[change.criticality.level], type: String(change.type), message: change.message };
  if (change.path) {
    result.coordinate = change.path;
    // Something required was added (an argument, an input field): what breaks is every use of its parent.
    const added = /_ADDED$/.test(String(change.type)) && change.path.includes(".");
    result.usageCoordinate = added ? change.path.slice(0, change.path.lastIndexOf(".")) : change.path;
  }
  return result;
}
