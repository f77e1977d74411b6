import type { ApiErrorEntry } from "./gateway-api.js";
import { t, textOr } from "./translations.js";

/** A refusal of the API as a form shows it: the field it concerns (when one) and what to tell the officer. */
export interface FieldError {
  /** The input field's name (`expectedAddress` of `input.expectedAddress`); undefined for the form as a whole. */
  field: string | undefined;
  /** The officer's words for it, in the console's language. */
  text: string;
  /** The API's own explanation (English), shown beneath where it adds something; never GraphQL's coercion text. */
  detail: string | undefined;
}

/** The argument path of a coercion error (`Variable "$input" got invalid value "" at "input.asset"`), which carries no `field`. */
function coercedField(message: string): { field: string; missing: boolean } | undefined {
  const missing = /Field "(\w+)" of required type "[^"]+" was not provided/.exec(message);
  if (missing) return { field: missing[1]!, missing: true };
  const at = /at "[\w$]+\.(\w+)/.exec(message);
  return at ? { field: at[1]!, missing: / got invalid value ""/.test(message) } : undefined;
}

/**
 * Maps each error to its field by its path (`extensions.field`, or the coercion error's own path)
 * and says it by its code in the console's language: a form shows no GraphQL text. `known` are
 * the form's field names, `labelOf` their labels.
 */
export function fieldErrors(errors: readonly ApiErrorEntry[], known: ReadonlySet<string>, labelOf: (field: string) => string): FieldError[] {
  return errors.map((entry) => {
    const code = entry.extensions?.code ?? "INTERNAL_SERVER_ERROR";
    const declared = entry.extensions?.field?.replace(/^input\./, "").split(".")[0];
    if (declared && known.has(declared)) {
      // A UserInputError's message is `<path>: <what is allowed>`; the path is the field's label now.
      const detail = entry.message.replace(/^[\w.]+: /, "");
      return { field: declared, text: t("fieldError.notAccepted", { field: labelOf(declared) }), detail };
    }
    const coerced = code === "BAD_USER_INPUT" ? coercedField(entry.message) : undefined;
    if (coerced && known.has(coerced.field)) {
      return {
        field: coerced.field,
        text: t(coerced.missing ? "fieldError.missing" : "fieldError.invalid", { field: labelOf(coerced.field) }),
        detail: undefined,
      };
    }
    return {
      field: undefined,
      text: textOr(`errorCode.${code}`, t("errorCode.other")),
      detail: code === "BAD_USER_INPUT" || code === "CONFLICT" ? entry.message : undefined,
    };
  });
}
