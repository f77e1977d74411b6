/** `theme.json` (AOPD_THEME_FILE): colours, typography and shape, applied as CSS custom properties. */
interface Theme {
  colors?: Record<string, string>;
  typography?: { fontFamily?: string; baseSize?: string };
  shape?: { borderRadius?: string };
}

const cssName = (name: string) => `--color-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Set through the CSS object model, which the page's Content-Security-Policy allows without inline styles. */
export async function applyTheme(root: HTMLElement): Promise<void> {
  const response = await fetch("/portal/theme.json");
  if (!response.ok) return;
  const theme = (await response.json()) as Theme;
  for (const [name, value] of Object.entries(theme.colors ?? {})) root.style.setProperty(cssName(name), value);
  if (theme.typography?.fontFamily) root.style.setProperty("--font-family", theme.typography.fontFamily);
  if (theme.typography?.baseSize) root.style.setProperty("--font-size", theme.typography.baseSize);
  if (theme.shape?.borderRadius) root.style.setProperty("--radius", theme.shape.borderRadius);
}
