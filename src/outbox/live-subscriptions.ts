import { Repeater } from "graphql-yoga";
import type { Principal } from "../auth/principal.ts";
import type { LiveEvent } from "./live-events.ts";

/** What a subscription may read, asked again of the caller as they are after an auth change. */
export interface LiveRule {
  /** throws (the error the subscriber sees) when the caller may no longer read the resource */
  allowed(principal: Principal): void;
  /** whether the caller, as they are now, sees this event */
  keep(event: LiveEvent, principal: Principal): boolean;
}

/** An event, or the refusal that ends a subscription (its resolver throws it: delivered). */
export type LiveMessage = LiveEvent | { denied: unknown };

/** The event to show, or the refusal thrown so that GraphQL sends it as the stream's error. */
export function delivered(message: LiveMessage): LiveEvent {
  if ("denied" in message) throw message.denied;
  return message;
}

interface Subscription {
  keyId: string;
  principal: Principal;
  rule: LiveRule;
  deny(error: unknown): void;
}

/** The open subscriptions of this instance, by key, so an auth change can narrow or end them. */
export class LiveSubscriptions {
  private readonly open = new Set<Subscription>();

  /** `source`'s events that pass the rule for the caller as they are now. */
  add(source: AsyncIterable<LiveEvent>, principal: Principal, rule: LiveRule) {
    return new Repeater<LiveMessage>(async (push, stop) => {
      const events = source[Symbol.asyncIterator]();
      const subscription: Subscription = {
        keyId: principal.apiKey.id,
        principal,
        rule,
        deny: (error) => {
          this.open.delete(subscription);
          void push({ denied: error }).then(() => stop());
        },
      };
      this.open.add(subscription);
      let stopped = false;
      void stop.then(() => {
        stopped = true;
        this.open.delete(subscription);
        void events.return?.();
      });
      while (!stopped) {
        const next = await events.next();
        if (next.done) break;
        if (stopped || !this.open.has(subscription)) continue;
        if (rule.keep(next.value, subscription.principal)) await push(next.value);
      }
      stop();
    });
  }

  /**
   * After an auth change: each subscription of the key sees events as `fresh` may (a narrower
   * role narrows it at once); one whose resource `fresh` may not read any more ends with its
   * refusal.
   */
  recheck(keyId: string, fresh: Principal) {
    for (const subscription of [...this.open]) {
      if (subscription.keyId !== keyId) continue;
      subscription.principal = fresh;
      try {
        subscription.rule.allowed(fresh);
      } catch (error) {
        subscription.deny(error);
      }
    }
  }
}
