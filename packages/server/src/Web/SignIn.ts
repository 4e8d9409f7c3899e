/**
 * Who the page is for: a signed cookie opened by signing in, with the API token (the operator)
 * or a one-time link from the bot (a user, see `Links.ts`). The cookie holds the subject and its
 * expiry, signed with a key derived from the API token (so rotating the token signs everyone
 * out); it is `HttpOnly`, `SameSite=Strict`, and `Secure` behind HTTPS. Signing out is kept on
 * the server (`WebSignedOut` in the subject's stream), so a copied cookie opens nothing after it.
 * Every state-changing form carries a CSRF token: the same key's signature over the cookie,
 * checked in constant time.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { EventStore } from "@verbatim/projections/EventStore"
import { Clock, Context, DateTime, Duration, Effect, Layer, Option, Redacted } from "effect"
import { createHash, createHmac } from "node:crypto"
import { UserId } from "@verbatim/domain/Ids"
import { signOutStream } from "@verbatim/domain/Streams"
import { WebAccessCommand, webAccessDecider } from "@verbatim/domain/WebAccess"
import * as Runner from "../Runner.js"
import { ApiToken } from "../ApiToken.js"
import { ServerConfig } from "../ServerConfig.js"
import { constantTimeEqual } from "../Providers/WebhookAuth.js"

export const cookieName = "verbatim_session"

/** How long a sign-in lasts. */
export const lifetime = Duration.hours(12)

/** Who is signed in: the operator (the API token's holder) sees everything; a user sees their own. */
export type Subject = { readonly _tag: "Operator" } | { readonly _tag: "User"; readonly user: UserId }

/** The user whose data a subject may see, or undefined for all (the operator). */
export const userOf = (subject: Subject): UserId | undefined => (subject._tag === "User" ? subject.user : undefined)

/** Whether a subject may see data of `user`. */
export const maySee = (subject: Subject, user: string): boolean => subject._tag === "Operator" || subject.user === user

const subjectPart = (subject: Subject) =>
  subject._tag === "Operator" ? "operator" : `u${Buffer.from(subject.user, "utf8").toString("base64url")}`

const subjectOf = (part: string): Subject | null =>
  part === "operator"
    ? { _tag: "Operator" }
    : part.startsWith("u") && part.length > 1
    ? { _tag: "User", user: UserId.make(Buffer.from(part.slice(1), "base64url").toString("utf8")) }
    : null

export class WebKeys extends Context.Tag("@verbatim/server/Web/WebKeys")<WebKeys, {
  /** The key cookies and CSRF tokens are signed with. */
  readonly key: Buffer
  /** Whether `presented` is the API token. */
  readonly isApiToken: (presented: string) => boolean
  /** Whether `presented` is the CSRF token of the signed-in `cookie`. */
  readonly isCsrf: (cookie: string, presented: string) => boolean
}>() {
  static readonly layer = Layer.effect(
    WebKeys,
    Effect.map(ApiToken, (resolved) => {
      const token = Redacted.value(resolved.token)
      const key = createHmac("sha256", token).update("verbatim web sign-in").digest()
      return WebKeys.of({
        key,
        isApiToken: (presented) => constantTimeEqual(presented, token),
        isCsrf: (cookie, presented) => constantTimeEqual(presented, csrfOf(key, cookie))
      })
    })
  )
}

const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url")

/** A cookie value for `subject`, valid until `expiresAt` (epoch ms). */
export const issue = (key: Buffer, subject: Subject, expiresAt: number): string => {
  const payload = `${subjectPart(subject)}.${expiresAt}`
  return `${payload}.${sign(key, payload)}`
}

/** The subject of a cookie value whose signature holds and whose time has not passed. */
export const verify = (key: Buffer, value: string, now: number): Option.Option<Subject> => {
  const [who, expires, signature] = value.split(".")
  if (who === undefined || expires === undefined || signature === undefined) return Option.none()
  if (!constantTimeEqual(signature, sign(key, `${who}.${expires}`)) || Number(expires) <= now) return Option.none()
  return Option.fromNullable(subjectOf(who))
}

/** The CSRF token of a signed-in cookie. */
export const csrfOf = (key: Buffer, cookie: string): string => sign(key, `csrf.${cookie}`)

/** The id a sign-out names one browser's sign-in by: a digest of its cookie (the cookie itself is never stored). */
const sessionOf = (cookie: string) => createHash("sha256").update(cookie).digest("base64url").slice(0, 22)

/** The stream where a subject's sign-outs are kept. */

/** Whether a sign-out recorded for the subject ends this cookie's sign-in (issued `lifetime` before it expires). */
const signedOutBefore = (subject: Subject, cookie: string) =>
  Effect.gen(function*() {
    const issuedAt = Number(cookie.split(".")[1]) - Duration.toMillis(lifetime)
    const ended = yield* Effect.orDie(Effect.flatMap(EventStore, (store) => store.readStream(signOutStream(subjectPart(subject)))))
    return ended.some(({ event }) =>
      event._tag === "WebSignedOut" &&
      (event.session === null ? DateTime.toEpochMillis(event.signedOutAt) >= issuedAt : event.session === sessionOf(cookie)))
  })

/**
 * The request's cookie value and its subject, when it is signed in: its signature and time hold,
 * no sign-out ended it (`WebSignedOut`), and a user is still on the allow-list
 * (`VERBATIM_ALLOWED_SENDERS`), so one taken off it is signed out at once.
 */
export const current = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { key } = yield* WebKeys
  const cookie = request.cookies[cookieName]
  if (cookie === undefined) return Option.none()
  const now = yield* Clock.currentTimeMillis
  const { allowedSenders } = yield* ServerConfig
  const subject = Option.filter(verify(key, cookie, now), (s) => s._tag === "Operator" || allowedSenders.has(s.user))
  if (Option.isNone(subject) || (yield* signedOutBefore(subject.value, cookie))) return Option.none()
  return Option.some({ subject: subject.value, cookie, csrf: csrfOf(key, cookie) })
})

/** Whether the request came over HTTPS (directly or through a proxy that says so). */
const secure = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["x-forwarded-proto"] === "https" || request.url.startsWith("https:")

/**
 * The response that signs `subject` in: the cookie set, then to `next`. The cookie is `Secure`
 * when the request came over HTTPS or the site's public address is https (`httpsSite`).
 */
export const signedIn = (next: string, subject: Subject, httpsSite: boolean) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { key } = yield* WebKeys
    const expiresAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(lifetime)
    return yield* HttpServerResponse.redirect(next, { status: 303 }).pipe(
      HttpServerResponse.setCookie(cookieName, issue(key, subject, expiresAt), {
        httpOnly: true,
        sameSite: "strict",
        secure: httpsSite || secure(request),
        path: "/",
        maxAge: lifetime
      })
    )
  })

/**
 * Sign out: the sign-in ended on the server (this browser's, or, `everywhere`, every one of the
 * subject's made until now), the cookie expired, then to the sign-in page.
 */
export const signOut = (subject: Subject, cookie: string, everywhere: boolean) =>
  Effect.gen(function*() {
    const signOut = WebAccessCommand.SignOut({
      signOut: { subject: subjectPart(subject), session: everywhere ? null : sessionOf(cookie), signedOutAt: yield* DateTime.now }
    })
    yield* Effect.orDie(Runner.run(webAccessDecider, signOutStream(subjectPart(subject)), () => Effect.succeed(signOut), { keep: false }))
    return yield* HttpServerResponse.redirect("/signin", { status: 303 }).pipe(
      HttpServerResponse.setCookie(cookieName, "", { httpOnly: true, sameSite: "strict", path: "/", maxAge: Duration.zero }),
      Effect.orDie
    )
  })

/**
 * A plain path on this site: one "/" and then printable ASCII without spaces, quotes or
 * backslashes. Browsers drop tabs and line breaks from an address and read "\\" as "/", so
 * anything else could name another host ("/\t/evil.example" is "//evil.example").
 */
const sitePath = /^\/(?![/\\])[!#-[\]-~]*$/

/** A path on this site to go to after signing in (anything else goes home). */
export const localPath = (next: string | undefined): string => (next !== undefined && sitePath.test(next) ? next : "/")


