import { expect, test } from "bun:test";
import { renderCopies } from "../../scripts/webhook-event-types.ts";
import { WEBHOOK_EVENT_TYPES } from "../../src/features.ts";

/**
 * The webhook event types are declared once, in their features (src/modules/<feature>/
 * events.ts); the SDL's descriptions and the two clients' types are written from that list.
 */
test("the SDL and both clients list exactly the event types the features declare", () => {
  for (const { file, before, after } of renderCopies()) {
    expect(before === after, `${file} is out of date: run npm run events:generate`).toBe(true);
  }
});

test("a new event type would change every copy (so the check above can fail)", () => {
  const changed = renderCopies([...WEBHOOK_EVENT_TYPES, "widget.created"]);
  for (const { file, before, after } of changed) {
    expect(after === before, file).toBe(false);
    expect(after, file).toContain("widget.created");
  }
});
