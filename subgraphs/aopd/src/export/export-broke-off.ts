/**
 * An export that failed after its first byte left (the output was opened): `rows` were written
 * into the file before it stopped, `cause` is what stopped it (the output closed, a read failed).
 * The caller records the export as cut short with these rows.
 */
export class ExportBrokeOff extends Error {
  constructor(
    readonly rows: number,
    override readonly cause: unknown,
  ) {
    super(`The export broke off after ${rows} rows.`);
    this.name = "ExportBrokeOff";
  }
}
