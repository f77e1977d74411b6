let counter = 0;

/** A unique id for pairing a label with its field. */
export function fieldId(name: string): string {
  counter += 1;
  return `${name}-${counter}`;
}
