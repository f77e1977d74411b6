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

/** The text of `key` in the current language (English when that language lacks it), with `{name}` filled in. */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const text = catalogues[language]?.[key] ?? en[key as keyof typeof en] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
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
