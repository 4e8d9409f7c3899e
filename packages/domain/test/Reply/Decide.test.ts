/** A reply's own stream: queued once, recorded as sent once, no failure after it was sent; a link used once. */
import { at, user } from "@verbatim/testkit/Given"
import { DeciderSpec } from "@verbatim/testkit/DeciderSpec"
import { describe, it } from "@effect/vitest"
import { ReplyId } from "../../src/Ids.js"
import { ReplyCommand, replyDecider } from "../../src/Reply/Decide.js"
import { rejected } from "../../src/Session/Commands.js"
import { WebAccessCommand, webAccessDecider } from "../../src/WebAccess.js"

const replies = DeciderSpec.for(replyDecider)
const replyId = ReplyId.make("help:telegram:42")
const reply = { replyId, user, provider: "telegram", chat: "100000001", text: "Forward me messages.", buttons: [], questionId: null } as const
const sent = { replyId, providerMessageId: "m-7", sentAt: at(5) }
const failed = { replyId, attempt: 1, detail: "unavailable: Bad Gateway", final: false }

describe("the reply decider", () => {
  it("queues a reply once", () => {
    replies.given([]).when(ReplyCommand.Queue({ reply })).then([{ _tag: "ReplyQueued", ...reply }])
    replies.given([{ _tag: "ReplyQueued", ...reply }]).when(ReplyCommand.Queue({ reply })).thenRejects(rejected("already-recorded"))
  })

  it("records a send once, whether the reply was queued here or in a session's stream", () => {
    replies.given([]).when(ReplyCommand.RecordSent({ sent })).then([{ _tag: "ReplySent", ...sent }])
    replies.given([{ _tag: "ReplyQueued", ...reply }, { _tag: "ReplyFailed", ...failed }]).when(ReplyCommand.RecordSent({ sent }))
      .then([{ _tag: "ReplySent", ...sent }])
    replies.given([{ _tag: "ReplySent", ...sent }]).when(ReplyCommand.RecordSent({ sent })).thenRejects(rejected("already-recorded"))
  })

  it("records failures until it is sent, and none after", () => {
    replies.given([{ _tag: "ReplyFailed", ...failed }]).when(ReplyCommand.RecordFailed({ failed: { ...failed, attempt: 2 } }))
      .then([{ _tag: "ReplyFailed", ...failed, attempt: 2 }])
    replies.given([{ _tag: "ReplySent", ...sent }]).when(ReplyCommand.RecordFailed({ failed })).thenRejects(rejected("already-recorded"))
  })
})

describe("the web access decider", () => {
  const access = DeciderSpec.for(webAccessDecider)
  const signIn = { user, nonce: "n0nce", signedInAt: at(9) }
  const signOut = { subject: user, session: null, signedOutAt: at(10) }

  it("takes a link's sign-in once", () => {
    access.given([]).when(WebAccessCommand.SignIn({ signIn })).then([{ _tag: "WebSignIn", ...signIn }])
    access.given([{ _tag: "WebSignIn", ...signIn }]).when(WebAccessCommand.SignIn({ signIn })).thenRejects(rejected("already-recorded", "the link was used"))
  })

  it("takes every sign-out", () => {
    access.given([{ _tag: "WebSignedOut", ...signOut }]).when(WebAccessCommand.SignOut({ signOut })).then([{ _tag: "WebSignedOut", ...signOut }])
  })
})
