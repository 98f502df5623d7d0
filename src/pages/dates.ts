import { type Html, html } from "./html.ts";

const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** `Feb 24, 2027`: the date a person reads (UTC, the same for every viewer). */
export const humanDate = (iso: string) => DAY.format(new Date(iso));

/** `2027-02-24 07:00 UTC`: the exact moment, for the tooltip. */
export const exactUtc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * A date in a `<time>` element: the day in words, the exact UTC minute on hover (`title`) and
 * for machines (`datetime`); `none` when there is no date.
 */
export const when = (iso: string | null, none: string): Html | string =>
  iso ? html`<time datetime="${iso}" title="${exactUtc(iso)}">${humanDate(iso)}</time>` : none;
