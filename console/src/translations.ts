import de from "./lang/de.json";
import en from "./lang/en.json";

type Messages = Record<string, string>;
const catalogues: Record<string, Messages> = { en, de };
export const languages = Object.keys(catalogues);

function initialLanguage(): string {
  const chosen = localStorage.getItem("console.language");
  if (chosen && catalogues[chosen]) return chosen;
  const browser = navigator.language.slice(0, 2).toLowerCase();
  return catalogues[browser] ? browser : "en";
}

let language = initialLanguage();

export function currentLanguage(): string {
  return language;
}

export function setLanguage(next: string): void {
  if (!catalogues[next]) return;
  language = next;
  localStorage.setItem("console.language", next);
  document.documentElement.lang = next;
}

const lookup = (key: string): string | undefined => catalogues[language]?.[key] ?? (en as Messages)[key];

/**
 * The text of `key` in the current language (English when that language lacks it), with `{name}`
 * filled in; numbers are written the language's way. With a numeric `count`, the plural form the
 * language's rules (`Intl.PluralRules`) choose: `key.one`, `key.other` (and `key.zero`, `key.few`,
 * ... where a language has them), so that no text says "1 proofs".
 */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const count = params.count;
  const plural = typeof count === "number" ? (lookup(`${key}.${new Intl.PluralRules(language).select(count)}`) ?? lookup(`${key}.other`)) : undefined;
  const text = plural ?? lookup(key) ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return `{${name}}`;
    return typeof value === "number" ? formatNumber(value) : value;
  });
}

/** The text of `key`, or `fallback` where no translation has it (a code the API added after this release). */
export function textOr(key: string, fallback: string): string {
  const text = t(key);
  return text === key ? fallback : text;
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(language).format(value);
}
