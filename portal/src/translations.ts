/** `lang.json`: texts by language, then by key (served from AOPD_LANG_FILE, replaceable by the operator). */
export type Translations = Record<string, Record<string, string>>;

/** The text of `key` with `{name}` placeholders filled; English, then the key itself, when missing. */
export type Translator = ((key: string, values?: Record<string, string>) => string) & {
  language: string;
  languages: string[];
  /** Whether the current or the English texts have `key`. */
  has(key: string): boolean;
};

export async function loadTranslations(): Promise<Translations> {
  const response = await fetch("/portal/lang.json");
  return (await response.json()) as Translations;
}

/**
 * The language of the link's `?lang=` when we have texts for it, else the browser's first
 * preferred language we have texts for, else English (or the first we have).
 */
export function preferredLanguage(translations: Translations, requested: string | null, preferences: readonly string[]): string {
  for (const preference of [...(requested ? [requested] : []), ...preferences]) {
    const language = preference.toLowerCase().split("-")[0] ?? "";
    if (translations[language]) return language;
  }
  return translations.en ? "en" : (Object.keys(translations)[0] ?? "en");
}

export function translator(translations: Translations, language: string): Translator {
  const texts = translations[language] ?? {};
  const fallback = translations.en ?? {};
  const plurals = new Intl.PluralRules(language);
  // With a `count`, the language's plural form of the text (`key.one`, `key.other`, ...) where the texts have one: never "1 seconds".
  const find = (key: string, count: string | undefined) => {
    const form = count === undefined ? undefined : `${key}.${plurals.select(Number(count))}`;
    return (form ? (texts[form] ?? fallback[form]) : undefined) ?? texts[key] ?? fallback[key] ?? key;
  };
  const t = (key: string, values: Record<string, string> = {}) => find(key, values.count).replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
  return Object.assign(t, { language, languages: Object.keys(translations), has: (key: string) => key in texts || key in fallback });
}
