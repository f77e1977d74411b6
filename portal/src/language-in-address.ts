/**
 * Writes the chosen language into the address bar as `?lang=` (without a navigation), so that a
 * reload, a bookmark or the link sent on keeps it; the rest of the address stays as it was.
 */
export function keepLanguageInAddress(language: string): void {
  const url = new URL(location.href);
  if (url.searchParams.get("lang") === language) return;
  url.searchParams.set("lang", language);
  history.replaceState(history.state, "", url);
}
