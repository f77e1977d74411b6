type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | boolean | ((event: Event) => void) | undefined>;

/**
 * A DOM element from a tag, attributes and children: the portal and the console build their few screens with this
 * instead of a framework. Text always goes in as text nodes, never as HTML, so nothing a proof
 * carries (a message, an address) can become markup.
 */
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}
