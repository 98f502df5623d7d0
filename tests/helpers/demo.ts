import type { OrgitApp } from "../../src/app.ts";
import { seedDemo } from "../../src/demo/seed.ts";

/** `npm run demo`'s data in `app`, without its banner on the test output: the demo key's secret. */
export async function seedDemoQuietly(app: OrgitApp): Promise<string> {
  const log = console.log;
  console.log = () => {}; // the demo prints its banner
  try {
    return (await seedDemo(app.services, app.services.config)).secret;
  } finally {
    console.log = log;
  }
}
