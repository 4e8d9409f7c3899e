/** Reads the recorded webhook bodies under test/fixtures/webhooks (see SOURCES.md there). */
import { readFileSync } from "node:fs"

/** The raw text of one fixture body, exactly as a provider would POST it. */
export const webhookFixture = (provider: "telegram" | "whatsapp", file: string): string =>
  readFileSync(new URL(`./fixtures/webhooks/${provider}/${file}`, import.meta.url), "utf8")
