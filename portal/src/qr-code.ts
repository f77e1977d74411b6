import { toString } from "qrcode";
import { h } from "@compliance-graph/web-dom";

/**
 * A QR code of `text` (an `aopp:`, `bitcoin:` or `ethereum:` URI) as inline SVG, drawn by the
 * `qrcode` library: the encoding and error correction are not ours to write.
 */
export async function qrCode(text: string, label: string): Promise<HTMLElement> {
  const svg = await toString(text, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  const figure = h("figure", { class: "qr", role: "img", "aria-label": label });
  // The SVG is the library's output for our own URI, not text from elsewhere.
  figure.innerHTML = svg;
  return figure;
}
