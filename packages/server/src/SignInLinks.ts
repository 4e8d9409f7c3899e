/**
 * The reply to `/web` in a chat, a one-time sign-in link, as the inbox asks for it. The link is the
 * web pages' to make (`Web/Links.ts`, signed with their keys), so the inbox names this service
 * instead of reaching into the pages.
 */
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import type { StoreError } from "@verbatim/projections/EventStore"
import { Context, type Effect } from "effect"

export class SignInLinks extends Context.Tag("@verbatim/server/SignInLinks")<SignInLinks, {
  /** Queue the reply to `/web` in `item`'s chat: `helped`, or `duplicate` when it was queued before. */
  readonly reply: (item: NewMessage) => Effect.Effect<"helped" | "duplicate", StoreError>
}>() {}
