/** `verbatim serve`: the HTTP service with its scheduler and outbox (what `npm start` runs). */
import { Command } from "@effect/cli"
import { serve } from "../Main.js"

export const command = Command.make("serve", {}, () => serve).pipe(
  Command.withDescription("Run the service: webhooks, read API, scheduler and reply outbox")
)
