/**
 * One-time sign-in links. `/web` in a chat queues a reply with a link to
 * `VERBATIM_PUBLIC_URL/signin/link?token=<token>`: the sender's user id, an expiry ten minutes out and
 * a nonce, signed with the web key. Opening it shows a button (link previews and mail scanners
 * fetch links, and must not use them up); pressing it appends `WebSignIn` to the nonce's own
 * stream at version 0, so a link works once across every instance sharing the log, and the log
 * keeps who signed in when. At most `linksPerHour` links go to a chat in an hour; the first `/web`
 * past that gets one notice, and any more in the hour nothing, so no run of `/web` floods the outbox.
 */
import type { NewMessage } from "@verbatim/domain/Inbound/Inbound"
import { ReplyId, userIdOf, UserId } from "@verbatim/domain/Ids"
import * as ReplyText from "@verbatim/domain/ReplyText"
import { isChatProvider } from "@verbatim/domain/Inbound/Providers"
import { signInStream } from "@verbatim/domain/Streams"
import { WebAccessCommand, webAccessDecider } from "@verbatim/domain/WebAccess"
import { Jobs } from "@verbatim/projections/Jobs"
import { Clock, DateTime, Duration, Effect, Layer, Option } from "effect"
import { WebLinks } from "../WebLinks.js"
import { createHash, createHmac } from "node:crypto"
import { queueCommandReply } from "../Replies.js"
import { SignInLinks } from "../SignInLinks.js"
import * as Runner from "../Runner.js"
import { constantTimeEqual } from "../Providers/WebhookAuth.js"
import { WebKeys } from "./SignIn.js"

/** How long a link may wait to be opened. */
export const linkLifetime = Duration.minutes(10)

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url")
const unb64 = (text: string) => Buffer.from(text, "base64url").toString("utf8")
const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(`link.${payload}`).digest("base64url")

/** A link token for `user`, valid until `expiresAt` (epoch ms). */
export const linkToken = (key: Buffer, user: UserId, expiresAt: number, nonce: string): string => {
  const payload = `${b64(user)}.${expiresAt}.${nonce}`
  return `${payload}.${sign(key, payload)}`
}

/** The user and nonce of a token whose signature holds and whose time has not passed. */
export const readToken = (key: Buffer, token: string, now: number): Option.Option<{ readonly user: UserId; readonly nonce: string }> => {
  const [user, expires, nonce, signature] = token.split(".")
  if (user === undefined || expires === undefined || nonce === undefined || signature === undefined) return Option.none()
  if (!constantTimeEqual(signature, sign(key, `${user}.${expires}.${nonce}`)) || Number(expires) <= now) return Option.none()
  return Option.some({ user: UserId.make(unb64(user)), nonce })
}

/**
 * The address of a link: the token rides in the query, where no router's limit on a path
 * segment's length applies (a token grows with the user id and the clock).
 */
export const linkUrl = (base: string, token: string): string => `${base}/signin/link?token=${token}`


/** A link's nonce: the `/web` command's own, so the same command always yields the same link. */
const nonceOf = (provider: string, providerMessageId: string) =>
  createHash("sha256").update(`${provider}:${providerMessageId}`).digest("base64url").slice(0, 22)

/** `a:b:c` as `a` and `b:c`. */
const splitAtColon = (text: string): readonly [string, string] => {
  const at = text.indexOf(":")
  return [text.slice(0, at), text.slice(at + 1)]
}

/** The id of every `/web` reply starts so: `web:<provider>:<message id>`. */
const linkReplyPrefix = "web:"

/** The id of the notice that the hourly cap is reached starts so (not `web:`: it voids no link). */
const limitReplyPrefix = "web-limit:"

/** Sign-in replies a chat gets in an hour at most. */
export const linksPerHour = 5

/**
 * Whether `nonce` is the newest link the user was sent: a new `/web` voids the links before it,
 * so at most one is live. Its reply is the newest `web:` reply in the user's own chat.
 */
const newestLink = (user: UserId, nonce: string) =>
  Effect.gen(function*() {
    // A user id is `provider:sender`, and a link is sent in the sender's own chat, whose id is the sender's.
    const [provider, sender] = splitAtColon(user)
    if (!isChatProvider(provider)) return false
    const newest = yield* Effect.flatMap(Jobs, (read) => read.newestReplyId(provider, sender, linkReplyPrefix))
    return Option.exists(newest, (replyId) => nonceOf(...splitAtColon(replyId.slice(linkReplyPrefix.length))) === nonce)
  })

/** Whether a message came in the sender's own chat with the bot (a Telegram group's chat is the group's, not the sender's). */
const inPrivate = (item: NewMessage) => item.provider === "web" || item.chatId === item.senderId

/** Queue `text` as the command's reply: `helped`, or `duplicate` when it was queued before. */
const queueReply = (item: NewMessage, replyId: ReplyId, text: string) =>
  Effect.map(queueCommandReply(item, replyId, text), (queued) => (queued ? "helped" as const : "duplicate" as const))

/**
 * Past the hourly cap: the first `/web` over it gets a notice, later ones nothing (`helped` with
 * nothing queued); none when the chat is under the cap.
 */
const overLimit = (item: NewMessage) =>
  Effect.gen(function*() {
    const read = yield* Jobs
    const since = (yield* Clock.currentTimeMillis) - Duration.toMillis(Duration.hours(1))
    const recent = (prefix: string, limit: number) => read.repliesSince(item.provider, item.chatId, prefix, since, limit)
    if ((yield* recent(linkReplyPrefix, linksPerHour)) < linksPerHour) return Option.none()
    if ((yield* recent(limitReplyPrefix, 1)) > 0) return Option.some(Effect.succeed("helped" as const))
    const replyId = ReplyId.make(`${limitReplyPrefix}${item.provider}:${item.providerMessageId}`)
    return Option.some(queueReply(item, replyId, ReplyText.webLimitText(linksPerHour)))
  })

/**
 * The reply to `/web`, queued in its own reply stream under the command's id (a redelivery queues
 * nothing more). The nonce is the message's, so the same command always yields the same link.
 */
export const replyToWeb = (item: NewMessage) =>
  Effect.gen(function*() {
    const limited = yield* overLimit(item)
    if (Option.isSome(limited)) return yield* limited.value
    const { key } = yield* WebKeys
    const { publicUrl } = yield* WebLinks
    const user = userIdOf(item.provider, item.senderId)
    const nonce = nonceOf(item.provider, item.providerMessageId)
    const expiresAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(linkLifetime)
    // A link signs in whoever opens it first: it is posted only in the sender's own chat with the bot.
    const text = !inPrivate(item) ? ReplyText.webInGroupText : Option.match(publicUrl, {
      onNone: () => ReplyText.noWebText,
      onSome: (base) => ReplyText.webLinkText(linkUrl(base, linkToken(key, user, expiresAt, nonce)), Duration.toMinutes(linkLifetime))
    })
    return yield* queueReply(item, ReplyId.make(`${linkReplyPrefix}${item.provider}:${item.providerMessageId}`), text)
  })

/** `SignInLinks` as the pages make links: `replyToWeb` with their keys, the read model and the store in hand. */
export const signInLinksLayer = Layer.effect(
  SignInLinks,
  Effect.map(Effect.context<Effect.Effect.Context<ReturnType<typeof replyToWeb>>>(), (context) =>
    SignInLinks.of({ reply: (item) => Effect.provide(replyToWeb(item), context) }))
)

/** Whether a link's signature and time still hold (opening it uses nothing up). */
export const holds = (token: string) =>
  Effect.gen(function*() {
    const { key } = yield* WebKeys
    return Option.isSome(readToken(key, token, yield* Clock.currentTimeMillis))
  })

/** Use a link: its user, once; none when it is forged, expired, used already, or a newer link was sent since. */
export const redeem = (token: string) =>
  Effect.gen(function*() {
    const { key } = yield* WebKeys
    const found = readToken(key, token, yield* Clock.currentTimeMillis)
    if (Option.isNone(found)) return Option.none<UserId>()
    const { nonce, user } = found.value
    if (!(yield* newestLink(user, nonce))) return Option.none<UserId>()
    const signIn = WebAccessCommand.SignIn({ signIn: { user, nonce, signedInAt: yield* DateTime.now } })
    const used = yield* Runner.run(webAccessDecider, signInStream(nonce), () => Effect.succeed(signIn), { keep: false }).pipe(
      Effect.as(false),
      Effect.catchTag("Rejected", () => Effect.succeed(true))
    )
    return used ? Option.none<UserId>() : Option.some(user)
  })
