import { expect, test } from "bun:test";
import { HashQueue, PasswordQueueFull, passwordQueue } from "../../src/auth/passwords.ts";

test("100 tasks at once on a 4 + 28 hash queue: 4 run, 28 wait, 68 are refused at once", async () => {
  const queue = new HashQueue(4, 28);
  let running = 0;
  let most = 0;
  let release = () => {};
  const gate = new Promise<void>((go) => {
    release = go;
  });
  const outcomes = Array.from({ length: 100 }, () =>
    queue
      .run(async () => {
        running++;
        most = Math.max(most, running);
        await gate;
        running--;
        return "ran";
      })
      .catch((error) => (error instanceof PasswordQueueFull ? "refused" : "other")),
  );
  await Promise.resolve();
  expect(running, "running before release").toBe(4);
  release();
  const results = await Promise.all(outcomes);
  expect(results.filter((r) => r === "ran")).toHaveLength(32);
  expect(results.filter((r) => r === "refused")).toHaveLength(68);
  expect(most, "never more than 4 at once").toBe(4);
  expect(await queue.run(async () => "free again")).toBe("free again");
});

test("the password queue holds one address's whole allowance of 30 attempts", () => {
  expect(passwordQueue.capacity).toBe(32);
});
