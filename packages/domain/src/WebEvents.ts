/** What happens on the web pages that the log keeps: who signed in with which one-time link. */
import { Schema } from "effect"
import { UserId } from "./Ids.js"

/**
 * A one-time sign-in link was used. Its stream is the link's own (`web-signin-<nonce>`), written
 * once: a second use of the link meets the stream already there and is refused.
 */
export const WebSignIn = Schema.TaggedStruct("WebSignIn", {
  user: UserId,
  nonce: Schema.String,
  signedInAt: Schema.DateTimeUtc
})
