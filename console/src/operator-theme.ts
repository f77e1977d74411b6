import { graphql } from "./graphql/graphql.js";

/**
 * The operator's look, the same the customer portal wears: `theme` (AOPD_THEME_FILE: colours,
 * typography, shape) and `logo` (AOPD_LOGO_FILE, an SVG), read through the public API
 * (`aopd { theme logo }`, base64) rather than from the portal's files, as everything the console
 * reads. The theme becomes the CSS custom properties `style.css` uses, set through the CSS object
 * model, which the page's Content-Security-Policy allows without inline styles. The logo is shown
 * through an `<img>` from a data URL: an SVG there runs no script and loads nothing.
 */
export interface OperatorTheme {
  colors?: Record<string, string>;
  typography?: { fontFamily?: string; baseSize?: string };
  shape?: { borderRadius?: string };
}

/** The GraphQL selection that reads both (beside `configuration`, in one request at start). */
export const operatorThemeFields = graphql(`
  fragment OperatorThemeFields on Aopd {
    theme
    logo
  }
`);

const cssName = (name: string) => `--color-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Applies `theme` (base64 JSON) to `root`; a theme that does not parse leaves the console's own look. */
export function applyOperatorTheme(root: HTMLElement, themeBase64: string): void {
  let theme: OperatorTheme;
  try {
    theme = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(themeBase64), (char) => char.charCodeAt(0)))) as OperatorTheme;
  } catch {
    return;
  }
  for (const [name, value] of Object.entries(theme.colors ?? {})) if (typeof value === "string") root.style.setProperty(cssName(name), value);
  if (theme.typography?.fontFamily) root.style.setProperty("--font-family", theme.typography.fontFamily);
  if (theme.typography?.baseSize) root.style.setProperty("--font-size", theme.typography.baseSize);
  if (theme.shape?.borderRadius) root.style.setProperty("--radius", theme.shape.borderRadius);
}

/** The operator's logo (base64 SVG) as an image source. */
export function operatorLogoUrl(logoBase64: string): string {
  return `data:image/svg+xml;base64,${logoBase64}`;
}
