import ipaddr from "ipaddr.js";
import type { Database } from "../../db/client.ts";
import type { AddIngestSourceInput } from "../../generated/schema.ts";
import { Problems } from "../../validation.ts";
import { requireOrganization } from "./lookups.ts";
import { insertIngestSource } from "./queries.ts";

/** Operator mutation addIngestSource: an address or network whose alerts land in one organization. */
export class IngestSourceAdmin {
  constructor(private readonly database: Database) {}

  async add(input: AddIngestSourceInput) {
    const cidr = normaliseCidr(input.cidr.trim());
    new Problems()
      .check(
        cidr !== null,
        ["input", "cidr"],
        "Must be an IPv4 or IPv6 address or network, e.g. 203.0.113.0/24",
      )
      .check(
        (input.label ?? "").length <= 200,
        ["input", "label"],
        "Must be at most 200 characters",
      )
      .throwIfAny();
    const db = this.database.db;
    await requireOrganization(db, input.organizationId);
    return insertIngestSource(db, {
      organizationId: input.organizationId,
      cidr: cidr as string,
      label: input.label ?? null,
    });
  }
}

/** "10.0.0.0/8" stays; "10.0.0.7" becomes "10.0.0.7/32"; host bits are cleared. Null if invalid. */
export function normaliseCidr(value: string): string | null {
  try {
    if (value.includes("/")) {
      const [address, bits] = ipaddr.parseCIDR(value);
      const network =
        address.kind() === "ipv4"
          ? ipaddr.IPv4.networkAddressFromCIDR(value)
          : ipaddr.IPv6.networkAddressFromCIDR(value);
      return `${network.toString()}/${bits}`;
    }
    const address = ipaddr.parse(value);
    return `${address.toString()}/${address.kind() === "ipv4" ? 32 : 128}`;
  } catch {
    return null;
  }
}
