import { index, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/** Published agent builds; global, not per organization. */
export const agentReleases = pgTable(
  "agent_releases",
  {
    id: uuid().primaryKey().defaultRandom(),
    version: text().notNull(),
    /** windows, macos, linux, … as for equipment */
    platform: text().notNull(),
    /** e.g. x86_64, arm64 */
    architecture: text().notNull(),
    /** e.g. stable, beta */
    channel: text().notNull(),
    downloadUrl: text().notNull(),
    /** hex SHA-256 of the download */
    sha256: text().notNull(),
    releasedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("agent_releases_build_key").on(t.version, t.platform, t.architecture, t.channel),
    index("agent_releases_released_idx").on(t.releasedAt.desc(), t.id.desc()),
    index("agent_releases_platform_channel_idx").on(t.platform, t.channel, t.releasedAt.desc()),
    // GET /agent-releases?channel=… without a platform
    index("agent_releases_channel_released_idx").on(t.channel, t.releasedAt.desc(), t.id.desc()),
  ],
);
