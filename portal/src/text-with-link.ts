import { h } from "@compliance-graph/web-dom";

/**
 * A translated sentence with a link where its `{placeholder}` stands: translators place the link
 * anywhere in the sentence, and the text around it stays text nodes.
 */
export function textWithLink(text: string, placeholder: string, link: { href: string; label: string }): HTMLElement {
  const [before = "", after = ""] = text.split(`{${placeholder}}`);
  return h("p", {}, before, h("a", { href: link.href, rel: "noopener" }, link.label), after);
}
