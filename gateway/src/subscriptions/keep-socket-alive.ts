import type WebSocket from "ws";

/**
 * Pings the socket every `intervalMs` and terminates it when the previous ping went unanswered: a
 * peer that vanished without closing (a dropped network, a suspended laptop) does not hold its
 * subscriptions forever. `onTick` runs with each ping (the legacy protocol's `ka` message).
 * Returns the function that stops it.
 */
export function keepSocketAlive(socket: WebSocket, intervalMs: number, onTick?: () => void): () => void {
  let answered = true;
  const onPong = () => {
    answered = true;
  };
  socket.on("pong", onPong);
  const timer = setInterval(() => {
    if (socket.readyState !== socket.OPEN) return;
    if (!answered) {
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
    onTick?.();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    socket.off("pong", onPong);
  };
}
