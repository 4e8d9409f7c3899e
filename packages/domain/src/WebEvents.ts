/** What happens on the web pages that the log keeps: who signed in with which one-time link, and who signed out. */
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

/**
 * A sign-in ended on the server: one browser's (`session`, the digest of its cookie), or every
 * sign-in of the subject made before `signedOutAt` (`session` null: "sign out everywhere"). Its
 * stream is the subject's (`web-signout-<subject>`), read when a cookie is presented, so a cookie
 * copied before signing out opens nothing after it.
 */
export const WebSignedOut = Schema.TaggedStruct("WebSignedOut", {
  subject: Schema.String,
  session: Schema.NullOr(Schema.String),
  signedOutAt: Schema.DateTimeUtc
})
