import type { ConsoleContext } from "../console-context.js";
import { h } from "@compliance-graph/web-dom";
import { wasAbandoned } from "../gateway-api.js";
import type { Proof } from "../proof-fields.js";
import { t } from "../translations.js";

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The media proof's file, fetched through the gateway's media route with the officer's token (an
 * `<img src>` could not carry it), shown inline from a blob URL, and its SHA-256 computed here in
 * the browser and compared with the one on record, so the officer knows the file seen is the file
 * the customer uploaded.
 */
export function mediaViewer(context: ConsoleContext, proof: Proof): HTMLElement {
  const check = h("p", { role: "status" }, t("media.loading"));
  const holder = h("div", { class: "media" });
  const section = h("section", { "aria-label": t("media.title") }, h("h2", {}, t("media.title")), holder, check);
  void (async () => {
    try {
      // A view, not a download: the trail records one per officer and file within its window (docs/audit-trail.md).
      const response = await context.api.authorized(withViewPurpose(proof.mediaUrl!));
      if (!response.ok) {
        check.textContent = t("media.refused", { status: String(response.status) });
        return;
      }
      const bytes = await response.arrayBuffer();
      const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
      const url = URL.createObjectURL(new Blob([bytes], { type: proof.contentType ?? "application/octet-stream" }));
      context.onLeave(() => URL.revokeObjectURL(url));
      const alt = t("media.alt", { address: proof.address ?? "" });
      if (proof.contentType?.startsWith("video/")) {
        holder.replaceChildren(h("video", { src: url, controls: true, "aria-label": alt }));
      } else {
        const image = h("img", { src: url, alt }) as HTMLImageElement;
        const size = h("p", {});
        image.addEventListener(
          "load",
          () => (size.textContent = t("media.dimensions", { width: String(image.naturalWidth), height: String(image.naturalHeight) })),
        );
        holder.replaceChildren(image, size);
      }
      if (digest === proof.sha256) {
        check.textContent = t("media.hashMatches");
      } else {
        check.setAttribute("role", "alert");
        check.textContent = t("media.hashDiffers", { digest });
      }
    } catch (error) {
      if (!wasAbandoned(error)) check.textContent = t("common.failed");
    }
  })();
  return section;
}

/** The media route's URL asking for a view (`?purpose=view`), whatever query the URL already has. */
function withViewPurpose(mediaUrl: string): string {
  return `${mediaUrl}${mediaUrl.includes("?") ? "&" : "?"}purpose=view`;
}
