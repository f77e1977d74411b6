const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether text is a UUID in its canonical hyphenated form (either case). */
export function isUuid(text: string): boolean {
  return uuidPattern.test(text);
}
