/**
 * A fake Telegram Bot API on 127.0.0.1: `POST /bot<token>/<method>` answered in the real wire
 * format (`{ ok, result }` / `{ ok: false, error_code, description }`), every request recorded;
 * files the test adds are found by `getFile` and downloaded from `/file/bot<token>/<file_path>`,
 * refused as Telegram refuses bots a file over 20 MB.
 */
import { admit, type Rate } from "@verbatim/domain/Reply/Pacing"
import { Context, Effect, Layer, type Scope } from "effect"
import { type FakeFiles, fakeFiles } from "./internal/fakeFiles.js"

export type { FakeFiles }
import { type JsonResponse, startJsonServer } from "./internal/jsonServer.js"

/** A failure the fake can be told to answer with. */
export type TelegramFailure = "server" | "rate-limited" | "bad-request"

/** One call the fake received (failed ones included). */
export interface TelegramCall {
  /** The Bot API method, e.g. `sendMessage`. */
  readonly method: string
  readonly token: string
  readonly body: unknown
}

const failures: Record<TelegramFailure, JsonResponse> = {
  server: { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } },
  "rate-limited": {
    status: 429,
    body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } }
  },
  "bad-request": { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } }
}

/** The bot the fake is, as `getMe` and the `from` of sent messages describe it. */
export const fakeBot = { id: 123456, is_bot: true, first_name: "Verbatim", username: "verbatim_bot" } as const

/** The bot token the fake accepts unless told otherwise. */
export const defaultToken = "123456:TEST-TOKEN"

/** The running fake. */
export class FakeTelegram extends Context.Tag("@verbatim/testkit/FakeTelegram")<FakeTelegram, {
  /** `http://127.0.0.1:<port>`, for `TELEGRAM_API_BASE`. */
  readonly baseUrl: string
  readonly token: string
  readonly calls: Effect.Effect<ReadonlyArray<TelegramCall>>
  /** The next `times` calls fail with `failure`, then calls succeed again. */
  readonly failNext: (times: number, failure: TelegramFailure) => Effect.Effect<void>
  /** Files `getFile` knows, by `file_id`. */
  readonly files: FakeFiles
  /**
   * From now on `sendMessage` keeps to these limits as Telegram does: a message over either is
   * refused with 429 and a `retry_after` (counted in `refusedForRate`). The overall limit counts
   * the messages of every sliding second (at most `perSecond` in any one); a chat's lets one more
   * message through than its burst, as requests reach a server a little nearer together than they
   * were sent.
   */
  readonly enforceRates: (limits: { readonly overall: Rate; readonly perChat: Rate }) => Effect.Effect<void>
  readonly refusedForRate: Effect.Effect<number>
}>() {
  static readonly make = (token: string = defaultToken): Effect.Effect<FakeTelegram["Type"], never, Scope.Scope> =>
    Effect.gen(function*() {
      const calls: Array<TelegramCall> = []
      const pending: Array<TelegramFailure> = []
      let nextMessageId = 1
      const files = fakeFiles()
      let limits: { readonly overall: Rate; readonly perChat: Rate } | null = null
      const tats = new Map<string, number>()
      /** When the messages of the last second were taken (epoch ms), oldest first. */
      const lastSecond: Array<number> = []
      let refused = 0
      /** Null when a message to `chat` now keeps within the limits (and counts against them), else the 429. */
      const overRate = (chat: string): JsonResponse | null => {
        if (limits === null) return null
        const now = Date.now()
        while (lastSecond.length > 0 && lastSecond[0]! <= now - 1000) lastSecond.shift()
        const one = admit(tats.get(chat) ?? 0, { ...limits.perChat, burst: limits.perChat.burst + 1 }, now)
        if (lastSecond.length < limits.overall.perSecond && "tat" in one) {
          lastSecond.push(now)
          tats.set(chat, one.tat)
          return null
        }
        refused += 1
        const wait = Math.max(1, Math.ceil(("waitMs" in one ? one.waitMs : 0) / 1000))
        return { status: 429, body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${wait}`, parameters: { retry_after: wait } } }
      }
      const baseUrl = yield* startJsonServer((request) => {
        const download = /^\/file\/bot([^/]+)\/files\/(.+)$/.exec(request.path)
        if (download !== null) {
          const fileId = decodeURIComponent(download[2] ?? "")
          const answer = (): JsonResponse => {
            const file = request.method === "GET" && download[1] === token ? files.download(fileId) : undefined
            return file === undefined
              ? { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } }
              : { status: 200, body: null, bytes: file.bytes, headers: { "content-type": file.mimeType } }
          }
          return files.held(fileId)?.then(answer) ?? answer()
        }
        const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.path)
        if (request.method !== "POST" || match === null) {
          return { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } }
        }
        const [, callToken = "", method = ""] = match
        calls.push({ method, token: callToken, body: request.body })
        if (callToken !== token) return { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } }
        const failure = pending.shift()
        if (failure !== undefined) return failures[failure]
        const body = (request.body ?? {}) as Record<string, unknown>
        switch (method) {
          case "sendMessage": {
            if (typeof body["text"] !== "string" || body["chat_id"] === undefined) return failures["bad-request"]
            const over = overRate(String(body["chat_id"]))
            if (over !== null) return over
            const result = {
              message_id: nextMessageId++,
              from: fakeBot,
              chat: { id: Number(body["chat_id"]), type: "private" },
              date: 1767225600,
              text: body["text"],
              ...(body["reply_markup"] === undefined ? {} : { reply_markup: body["reply_markup"] })
            }
            return { status: 200, body: { ok: true, result } }
          }
          case "getFile": {
            const fileId = String(body["file_id"] ?? "")
            const file = files.lookup(fileId)
            if (file === "fail") return failures.server
            if (file === undefined) return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: invalid file_id" } }
            if (file.declaredSize > 20 * 1024 * 1024) {
              return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: file is too big" } }
            }
            const result = { file_id: fileId, file_unique_id: `unique-${fileId}`, file_size: file.declaredSize, file_path: `files/${fileId}` }
            return { status: 200, body: { ok: true, result } }
          }
          case "answerCallbackQuery":
          case "editMessageReplyMarkup":
            return { status: 200, body: { ok: true, result: true } }
          case "getMe": {
            const result = { ...fakeBot, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }
            return { status: 200, body: { ok: true, result } }
          }
          default:
            return { status: 404, body: { ok: false, error_code: 404, description: "Not Found: method not found" } }
        }
      })
      return FakeTelegram.of({
        baseUrl,
        token,
        calls: Effect.sync(() => [...calls]),
        failNext: (times, failure) => Effect.sync(() => void pending.push(...Array.from({ length: times }, () => failure))),
        files: files.test,
        enforceRates: (rates) => Effect.sync(() => void (limits = rates)),
        refusedForRate: Effect.sync(() => refused)
      })
    })

  static readonly layer: Layer.Layer<FakeTelegram> = Layer.scoped(FakeTelegram, FakeTelegram.make())
}
