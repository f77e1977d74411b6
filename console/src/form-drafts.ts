/** Where what was typed waits while the browser signs in again. Session storage: gone with the tab. */
const key = "console.drafts";

type Draft = { path: string; fields: [string, string][] };

const fieldsOf = (root: ParentNode) => [
  ...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>("form input[name], form textarea[name], form select[name]"),
];

/**
 * Keeps what the officer typed on the screen before the console leaves for the sign-in page (a
 * session that ended with a restart of the service, say): each named field of the screen's forms,
 * with the path it was typed at. Passwords and files are never kept.
 */
export function saveDrafts(root: ParentNode): void {
  const fields = fieldsOf(root)
    .filter((field) => !(field instanceof HTMLInputElement && ["password", "file", "hidden"].includes(field.type)))
    .map((field): [string, string] => [
      field.name,
      field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio") ? (field.checked ? field.value || "on" : "") : field.value,
    ])
    .filter(([, value]) => value !== "");
  if (fields.length) sessionStorage.setItem(key, JSON.stringify({ path: `${location.pathname}${location.search}`, fields } satisfies Draft));
}

/** Puts the kept fields back once the screen they were typed at is shown again; then forgets them. */
export function restoreDrafts(root: ParentNode): void {
  const stored = sessionStorage.getItem(key);
  if (!stored) return;
  let draft: Draft;
  try {
    draft = JSON.parse(stored) as Draft;
  } catch {
    sessionStorage.removeItem(key);
    return;
  }
  if (draft.path !== `${location.pathname}${location.search}`) return;
  sessionStorage.removeItem(key);
  const fields = fieldsOf(root);
  for (const [name, value] of draft.fields) {
    for (const field of fields.filter((candidate) => candidate.name === name)) {
      if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio"))
        field.checked = field.checked || (field.value || "on") === value;
      else field.value = value;
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}
