export { h } from "./h.js";
export { fieldId } from "./field-id.js";
