import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { equipmentPlatformEnum } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { CreateAgentReleaseInput } from "../../generated/schema.ts";
import { Problems } from "../../validation.ts";
import { insertAgentRelease } from "./queries.ts";

/** Operator mutation createAgentRelease: a release every organization's agents can fetch. */
export class AgentReleaseAdmin {
  constructor(private readonly database: Database) {}

  async create(input: CreateAgentReleaseInput) {
    const platforms: readonly string[] = equipmentPlatformEnum.enumValues;
    new Problems()
      .length(input.version, ["input", "version"], 1, 50)
      .check(
        platforms.includes(input.platform),
        ["input", "platform"],
        `Must be one of ${platforms.join(", ")}`,
      )
      .length(input.architecture, ["input", "architecture"], 1, 50)
      .length(input.channel, ["input", "channel"], 1, 50)
      .check(
        /^https?:\/\/[^\s]+$/.test(input.downloadUrl),
        ["input", "downloadUrl"],
        "Must be an http(s) URL",
      )
      .check(
        /^[0-9a-f]{64}$/i.test(input.sha256),
        ["input", "sha256"],
        "Must be 64 hexadecimal characters",
      )
      .throwIfAny();
    try {
      return await insertAgentRelease(this.database.db, {
        ...input,
        sha256: input.sha256.toLowerCase(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError(
          "CONFLICT",
          "This version, platform, architecture and channel already exist",
        );
      }
      throw error;
    }
  }
}
