import { requireApiAccess } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { equipmentPlatformEnum } from "../../db/schema/index.ts";
import { Problems } from "../../validation.ts";
import { type ReleaseRow, releasesPage } from "./queries.ts";

export const RELEASE_PLATFORMS = equipmentPlatformEnum.enumValues;
export const CHANNEL_LENGTH = { min: 1, max: 50 } as const;

export interface ReleaseFilters extends PageArgs {
  platform?: string | null;
  channel?: string | null;
}

export const releaseJson = (row: ReleaseRow) => ({
  id: row.id,
  version: row.version,
  platform: row.platform,
  architecture: row.architecture,
  channel: row.channel,
  releasedAt: row.releasedAt,
  downloadUrl: row.downloadUrl,
  sha256: row.sha256,
});

/**
 * Agent releases are published by the operator for everyone, so the list is global and needs
 * nothing beyond API access (no scope guards it, docs/api.md). An unknown channel is simply empty; an
 * unknown platform is a mistake and answers 400.
 */
export class AgentReleaseService {
  constructor(private readonly database: Database) {}

  list(principal: Principal, args: ReleaseFilters) {
    requireApiAccess(principal);
    const window = pageWindow(args);
    const problems = new Problems();
    const { platform, channel } = args;
    if (platform != null) {
      problems.check(
        (RELEASE_PLATFORMS as readonly string[]).includes(platform),
        ["platform"],
        `Must be one of ${RELEASE_PLATFORMS.join(", ")}`,
      );
    }
    if (channel != null)
      problems.length(channel, ["channel"], CHANNEL_LENGTH.min, CHANNEL_LENGTH.max);
    problems.throwIfAny();
    return releasesPage(this.database.db, { platform, channel }, window, releaseJson);
  }
}
