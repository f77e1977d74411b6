/** `CommonStringConditionInput` as the resolvers receive it. */
export interface StringConditionInput {
  eq?: string | null;
  ne?: string | null;
  in?: readonly string[] | null;
  notIn?: readonly string[] | null;
  like?: string | null;
  ilike?: string | null;
  notIlike?: string | null;
  isNull?: boolean | null;
}

/** `CommonTimestampConditionInput` as the resolvers receive it (the `DateTime` scalar yields Dates). */
export interface TimestampConditionInput {
  eq?: Date | null;
  lt?: Date | null;
  lte?: Date | null;
  gt?: Date | null;
  gte?: Date | null;
  isNull?: boolean | null;
}

export const conditionsSchemaFile = new URL("../schema/conditions.graphql", import.meta.url);
