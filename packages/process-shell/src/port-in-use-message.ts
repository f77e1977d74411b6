/**
 * A listener's `EADDRINUSE` as the one line a person starting the system needs: which port is taken and which
 * variable moves it. Anything else is not this error: `undefined`, and the caller reports it as it would.
 *
 * @param portVariables the variables that choose the port, by port number (`{ 4000: "PORT", 4001: "AOPD_PORT or PORT" }`);
 *   a port not listed is named without a variable.
 */
export function portInUseMessage(error: unknown, portVariables: Record<number, string>): string | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") return undefined;
  const port = (error as NodeJS.ErrnoException & { port?: number }).port;
  if (port === undefined) return "A port is already in use by another process; stop it or choose other ports.";
  const variable = portVariables[port];
  return variable
    ? `Port ${port} is already in use by another process: stop it, or set ${variable} to a free port.`
    : `Port ${port} is already in use by another process: stop it, or choose another port.`;
}
