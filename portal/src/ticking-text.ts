/**
 * Shows `textAt(seconds left)` in `element` and updates it each second until `until` (a time in
 * milliseconds since the epoch), then calls `onDone`. It stops by itself once the element has left
 * the page (a re-render), so a countdown never outlives what it counts down.
 */
export function tickingText(element: HTMLElement, until: number, textAt: (seconds: number) => string, onDone?: () => void): void {
  const secondsLeft = () => Math.max(0, Math.ceil((until - Date.now()) / 1_000));
  element.textContent = textAt(secondsLeft());
  const timer = window.setInterval(() => {
    if (!element.isConnected) return window.clearInterval(timer);
    const seconds = secondsLeft();
    element.textContent = textAt(seconds);
    if (seconds === 0) {
      window.clearInterval(timer);
      onDone?.();
    }
  }, 1_000);
}
