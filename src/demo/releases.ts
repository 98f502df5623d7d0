import type { Db } from "../db/client.ts";
import { agentReleases } from "../db/schema/index.ts";

/** A release row with a made-up but well-formed download URL and sha256. */
function release(version: string, platform: string, architecture: string, channel: string) {
  return {
    version,
    platform,
    architecture,
    channel,
    downloadUrl: `https://downloads.orgit.example/agent/${version}/orgit-agent-${platform}-${architecture}`,
    sha256: Array.from(
      new TextEncoder()
        .encode(`${version}${platform}${architecture}${channel}`.padEnd(32, "0"))
        .slice(0, 32),
      (b) => b.toString(16).padStart(2, "0"),
    ).join(""),
  };
}

/** Agent releases are global: added only when the catalogue is empty. */
export async function seedAgentReleases(db: Db): Promise<void> {
  const existing = await db.select({ id: agentReleases.id }).from(agentReleases).limit(1);
  if (existing.length > 0) return;
  await db
    .insert(agentReleases)
    .values([
      release("2.3.1", "windows", "x86_64", "stable"),
      release("2.3.1", "linux", "x86_64", "stable"),
      release("2.3.1", "macos", "arm64", "stable"),
      release("2.4.0-beta.1", "windows", "x86_64", "beta"),
    ]);
}
