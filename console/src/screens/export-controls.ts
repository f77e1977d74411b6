import type { ConsoleContext } from "../console-context.js";
import { h } from "@compliance-graph/web-dom";
import type { ApiErrorEntry } from "../gateway-api.js";
import { formatNumber, t } from "../translations.js";

/**
 * Exports the current filter as an XLSX file through the gateway's streamed download route
 * (`POST /exports/proofs.xlsx`, docs/xlsx-export.md): the body is read chunk by chunk, the bytes
 * received so far are shown, and the finished file is handed to the browser as a download. A
 * refusal (a limit, a missing role) is shown as the API words it, with what to do.
 */
export function exportControls(context: ConsoleContext, filter: Record<string, unknown> | undefined): HTMLElement {
  const progress = h("p", { role: "status", class: "export-status" });
  const button = h("button", { type: "button" }, t("export.button")) as HTMLButtonElement;
  button.addEventListener("click", async () => {
    button.disabled = true;
    progress.textContent = t("export.starting");
    try {
      const response = await context.api.authorized("/exports/proofs.xlsx", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ filter: filter ?? null }),
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as { errors?: ApiErrorEntry[] };
        const error = body.errors?.[0];
        progress.textContent =
          error?.extensions?.code === "LIMIT_EXCEEDED"
            ? t(response.status === 429 ? "export.busy" : "export.tooMany", { message: error.message })
            : t("common.refused", { message: error?.message ?? `HTTP ${response.status}` });
        return;
      }
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        progress.textContent = t("export.progress", { kb: formatNumber(Math.round(received / 1024)) });
      }
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get("content-type") ?? "application/octet-stream" }));
      const link = h("a", { href: url, download: "proofs.xlsx" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      progress.textContent = t("export.done", { kb: formatNumber(Math.round(received / 1024)) });
    } catch {
      progress.textContent = t("export.interrupted");
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "export", "aria-label": t("export.title") }, button, progress);
}
