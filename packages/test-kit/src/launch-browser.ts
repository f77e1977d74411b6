import { chromium, type Browser } from "playwright-core";

/**
 * Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), driven by playwright-core: no browser is downloaded.
 * The flags keep it from reaching for the network (these machines have none) and let it run as root in CI.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}
