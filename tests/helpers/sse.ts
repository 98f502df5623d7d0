/**
 * A GraphQL-over-SSE reader for tests: the `next` events of a text/event-stream answer, in
 * order, parsed; `close()` cancels the stream as a departing client would.
 */
export function sseEvents(response: Response) {
  if (!response.body) throw new Error(`no stream: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary GraphQL results
  const queued: any[] = [];
  let pending: ReturnType<typeof reader.read> | undefined;
  return {
    /** the next `next` event's data, or a failure after `timeoutMs` */
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary GraphQL results
    async next(timeoutMs = 5_000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      while (queued.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error("no event within the time limit");
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), left);
        });
        // a read that lost the race stays pending and is raced again by the next call: a
        // new read would leave it behind, and the chunk it receives would be lost
        pending ??= reader.read();
        const read = await Promise.race([pending, timeout]);
        clearTimeout(timer);
        if (read === "timeout") throw new Error("no event within the time limit");
        pending = undefined;
        if (read.done) throw new Error("the stream ended");
        buffer += decoder.decode(read.value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split("\n");
          const event = lines
            .find((l) => l.startsWith("event:"))
            ?.slice(6)
            .trim();
          const data = lines
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .join("\n");
          if (event === "next" && data) queued.push(JSON.parse(data));
          end = buffer.indexOf("\n\n");
        }
      }
      return queued.shift();
    },
    close: () => reader.cancel(),
  };
}
