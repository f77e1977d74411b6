/** `scheme://host:port` of an http(s) URL, or "" (nothing else may stand in a Content-Security-Policy). */
export function originOf(value: unknown): string {
  try {
    const url = new URL(String(value));
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : "";
  } catch {
    return "";
  }
}
