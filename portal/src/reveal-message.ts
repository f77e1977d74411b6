/**
 * Brings a message the customer must see (a refusal, a result) into view and moves focus to it.
 * On a phone the button that caused it sits at the bottom of a long form and the message near
 * the top, so without this nothing seems to happen; focus also makes a screen reader read it and
 * lets a keyboard user continue from there. `tabindex="-1"` makes it focusable without adding a tab stop.
 */
export function revealMessage(element: HTMLElement): void {
  element.tabIndex = -1;
  element.scrollIntoView({ block: "center", behavior: "instant" });
  element.focus({ preventScroll: true });
}
