/** One server-sent event: its name and its data, parsed as JSON. */
export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/**
 * Reads a `text/event-stream` body event by event (comment lines skipped), ending when the server
 * ends the stream. The test awaits each event as it arrives; nothing waits for time.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = body.getReader();
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const lines = block.split("\n").filter((line) => !line.startsWith(":"));
      if (lines.length === 0) continue;
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "message";
      const data = lines
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      yield { event, data: JSON.parse(data) as Record<string, unknown> };
    }
  }
}
