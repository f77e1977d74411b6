import { connect, createServer, type Socket } from "node:net";

export interface FreezableTcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  port: number;
  /**
   * Stops forwarding in both directions without closing anything: what a server whose process is
   * stopped looks like from outside. Its kernel still accepts connections and buffers what is sent;
   * nothing is read or answered.
   */
  freeze(): void;
  /** Forwards again, first whatever was buffered meanwhile (and then the end of a connection the client closed). */
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A TCP hop in front of a server (the PostgreSQL server other tests share) that the test can freeze
 * and thaw: a database that stops answering (a frozen VM, a black-holed failover, a partition)
 * without stopping the real one.
 */
export async function startFreezableTcpProxy(target: { host: string; port: number } = { host: "127.0.0.1", port: 5432 }): Promise<FreezableTcpProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    if (frozen) socket.pause();
  };
  /** Copies `from` to `to` with backpressure; while frozen, `from` stays paused and its bytes wait in the kernel. */
  const forward = (from: Socket, to: Socket) => {
    from.on("data", (chunk: Buffer) => {
      if (to.write(chunk)) return;
      from.pause();
      to.once("drain", () => {
        if (!frozen) from.resume();
      });
    });
    from.on("end", () => to.end());
    from.on("error", () => to.destroy());
    from.on("close", () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw: () => {
      frozen = false;
      for (const socket of sockets) socket.resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
