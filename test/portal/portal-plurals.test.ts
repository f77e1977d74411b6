import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { translator, type Translations } from "../../portal/src/translations.js";

/** The portal's counted texts take the plural form the language's rules choose (Intl.PluralRules), with the shipped texts. */
describe("the portal's plurals", () => {
  it("says 1 second and 2 seconds, in English and German, and falls back to the plain text without a count", async () => {
    const texts = JSON.parse(await readFile(new URL("../../subgraphs/aopd/portal/lang.json", import.meta.url), "utf8")) as Translations;
    const en = translator(texts, "en");
    const de = translator(texts, "de");
    expect(en("error.rate_limited", { seconds: "1", count: "1" })).toBe("Too many attempts. Try again in 1 second.");
    expect(en("error.rate_limited", { seconds: "2", count: "2" })).toBe("Too many attempts. Try again in 2 seconds.");
    expect(de("link.rateLimitedHelp", { seconds: "1", count: "1" })).toMatch(/in 1 Sekunde von selbst/);
    expect(de("link.rateLimitedHelp", { seconds: "30", count: "30" })).toMatch(/in 30 Sekunden von selbst/);
    expect(en("error.rate_limited", { seconds: "5" })).toBe("Too many attempts. Try again in 5 seconds.");
  });
});
