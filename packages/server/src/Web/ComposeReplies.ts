/**
 * The compose page's live replies, by progressive enhancement: `/assets/compose.js` asks
 * `GET /compose/replies?shown=ID` with the newest reply the page shows, and the answer comes as
 * soon as a newer one is made (woken by its `ReplyQueued`, `Wakeups`), or after 25 s with none:
 * the replies as HTML, with the newest's id in `x-newest-reply`. Without scripts the page works
 * as before, with a reload.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Notebook } from "@verbatim/projections/Notebook"
import { Wakeups } from "@verbatim/projections/Wakeups"
import { Effect, Option } from "effect"
import { chatOf } from "../Inbox/Compose.js"
import { newestReply, repliesFragment } from "./ComposePage.js"
import { writerOf } from "./Composing.js"
import { pageHeaders } from "./Layout.js"
import * as SignIn from "./SignIn.js"

/** How long one long poll waits for a reply before answering with what there is. */
const within = "25 seconds"

/** The compose script: a long poll for the bot's replies, replacing them in place. */
const script = `(() => {
  const live = document.querySelector("[data-live-replies]")
  if (live === null) return
  let shown = live.getAttribute("data-live-replies") ?? ""
  const next = async () => {
    try {
      const answer = await fetch("/compose/replies?shown=" + encodeURIComponent(shown), { credentials: "same-origin" })
      if (!answer.ok) return
      const newest = answer.headers.get("x-newest-reply") ?? ""
      const fragment = await answer.text()
      if (newest !== shown) {
        live.innerHTML = fragment
        shown = newest
      }
      next()
    } catch {
      setTimeout(next, 5000)
    }
  }
  next()
})()
`

export const composeScript = HttpServerResponse.text(script, {
  contentType: "text/javascript; charset=utf-8",
  headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
})

/** GET /compose/replies: the replies once one newer than `shown` exists, or after `within`. */
export const liveReplies = Effect.gen(function*() {
  const who = yield* SignIn.current
  if (Option.isNone(who)) return HttpServerResponse.text("Sign in first", { status: 401 })
  const writer = yield* writerOf(who.value.subject)
  if (Option.isNone(writer)) return HttpServerResponse.text("Forbidden: you are no longer on this server's allow-list", { status: 403 })
  const user = writer.value
  const shown = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://local").searchParams.get("shown") ?? ""
  const read = yield* Notebook
  const current = read.conversationReplies("web", chatOf(user), 10)
  yield* Effect.flatMap(Wakeups, (wakeups) =>
    wakeups.waitUntil(["ReplyQueued"], within, Effect.map(current, (replies) => newestReply(replies) !== shown)))
  const replies = yield* current
  return HttpServerResponse.text(repliesFragment(replies)?.value ?? "", {
    contentType: "text/html; charset=utf-8",
    headers: { ...pageHeaders, "x-newest-reply": newestReply(replies) }
  })
})
