/**
 * Benchmark: a burst of reminders falling due at once (10,000 at 09:00), delivered through the
 * real reminder delivery and reply outbox to a fake Telegram Bot API that keeps Telegram's limits
 * (about 30 messages a second overall, one a second in a chat after a short burst) and refuses
 * what goes over them with 429. Each reminder is its own user's, in its own chat; `--per-user k`
 * gives each user k of them. Reports how long the burst took, the rate, and every reminder
 * delivered once: none refused, none lost, none twice.
 *
 *   npm run bench:reminder-burst -- [--reminders 10000] [--per-user 1]
 */
import { NodeHttpClient } from "@effect/platform-node"
import { SqlClient } from "@effect/sql/SqlClient"
import type { Event } from "@verbatim/domain/Events"
import { chatProviderRules } from "@verbatim/domain/Inbound/Providers"
import { MessageId, NoteId, PlanId, ReminderId, SessionId, UserId } from "@verbatim/domain/Ids"
import { reminderStream, sessionStream } from "@verbatim/domain/Streams"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import * as G from "@verbatim/testkit/Given"
import { FakeTelegram } from "@verbatim/testkit/FakeTelegram"
import * as Outbox from "@verbatim/server/Providers/Outbox"
import { TelegramClient, WhatsAppClient } from "@verbatim/server/Providers/ProviderClients"
import * as Delivery from "@verbatim/server/Reminders/Delivery"
import { ReminderTemplate } from "@verbatim/server/Reminders/Template"
import { ServerConfig } from "@verbatim/server/ServerConfig"
import { WebLinks } from "@verbatim/server/WebLinks"
import { ConfigProvider, DateTime, Effect, Layer, Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { numberFlag } from "./flags.js"

const reminders = numberFlag("reminders", 10_000)
const perUser = numberFlag("per-user", 1)

/** User `u`'s session with one message, and its `k` reminders, due a second ago. */
const history = (u: number, due: DateTime.Utc): ReadonlyArray<readonly [string, ReadonlyArray<Event>]> => {
  const user = UserId.make(`telegram:${300_000_000 + u}`)
  const chat = String(300_000_000 + u)
  const sessionId = `burst-${u}`
  const opened = { ...(G.sessionOpened(sessionId) as Extract<Event, { _tag: "SessionOpened" }>), user, chat }
  const received = G.messageReceived(sessionId, 1, "Remind me to call Ana.") as Extract<Event, { _tag: "MessageReceived" }>
  const message = { ...received, message: { ...received.message, sender: user, chat } }
  return [
    [sessionStream(SessionId.make(sessionId)), [opened, message]],
    ...Array.from({ length: perUser }, (_, k) => {
      const reminderId = ReminderId.make(`rburst${u}x${k}`)
      return [reminderStream(reminderId), [{
        _tag: "ReminderScheduled",
        reminderId,
        user,
        sessionId: SessionId.make(sessionId),
        planId: PlanId.make(`plan-${sessionId}`),
        messageId: MessageId.make(`${sessionId}/1`),
        quote: "Remind me to call Ana.",
        start: 0,
        end: 22,
        noteId: null as NoteId | null,
        due: { dueAt: due, zone: "UTC", local: DateTime.formatIso(due).slice(0, 16) }
      } as Event]] as const
    })
  ]
}

const program = Effect.gen(function*() {
  const fake = yield* FakeTelegram
  yield* fake.enforceRates(chatProviderRules.telegram.sendRate)
  const store = yield* EventStore
  const due = DateTime.unsafeMake(Date.now() - 1_000)
  const users = Math.ceil(reminders / perUser)
  const filling = Date.now()
  for (let u = 0; u < users; u += 200) {
    const appends = Array.from({ length: Math.min(200, users - u) }, (_, i) => history(u + i, due)).flat()
    for (const exit of yield* store.appendBatch(appends.map(([stream, events]) => ({ stream, expectedVersion: "any", events })))) {
      if (exit._tag === "Failure") return yield* Effect.die(exit.cause)
    }
  }
  console.log(JSON.stringify({ reminders: users * perUser, users, perUser, fillMs: Date.now() - filling }))
  const sql = yield* SqlClient
  const started = Date.now()
  yield* Effect.forkScoped(Outbox.runEvery("1 second"))
  yield* Effect.forkScoped(Delivery.run)
  let sent = 0
  while (sent < users * perUser) {
    yield* Effect.sleep("250 millis")
    sent = (yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM replies WHERE status = 'sent'`)[0]!.n
  }
  const seconds = (Date.now() - started) / 1000
  const texts = (yield* fake.calls).filter((c) => c.method === "sendMessage" && (c.body as { text?: string }).text !== undefined)
  const accepted = texts.length - (yield* fake.refusedForRate)
  const chats = new Map<string, number>()
  for (const call of texts) chats.set(String((call.body as { chat_id: unknown }).chat_id), (chats.get(String((call.body as { chat_id: unknown }).chat_id)) ?? 0) + 1)
  const delivered = (yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM reminders WHERE status = 'delivered'`)[0]!.n
  console.log(JSON.stringify({
    seconds: +seconds.toFixed(1),
    perSecond: +((users * perUser) / seconds).toFixed(1),
    delivered,
    accepted,
    refusedForRate: yield* fake.refusedForRate,
    chatsOverOrUnder: [...chats.values()].filter((n) => n !== perUser).length
  }))
})

const dir = mkdtempSync(join(tmpdir(), "verbatim-burst-"))
const fakeLayer = FakeTelegram.layer
const settings = Layer.unwrapEffect(Effect.map(FakeTelegram, (fake) =>
  ServerConfig.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([
    ["TELEGRAM_BOT_TOKEN", fake.token],
    ["TELEGRAM_API_BASE", fake.baseUrl],
    ["VERBATIM_ALLOWED_SENDERS", "telegram:300000000"]
  ])))))))
const clients = Layer.mergeAll(TelegramClient.layer, WhatsAppClient.layer).pipe(Layer.provide(NodeHttpClient.layerUndici))
const layer = Layer.mergeAll(Outbox.Outbox.layer, ReminderTemplate.layer(null), Layer.succeed(WebLinks, { publicUrl: Option.none() })).pipe(
  Layer.provideMerge(clients),
  Layer.provideMerge(settings),
  Layer.provideMerge(Store.layerSqlite({ filename: join(dir, "verbatim.db"), synchronous: "NORMAL" })),
  Layer.provideMerge(fakeLayer)
)

Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(layer))).then(
  () => rmSync(dir, { recursive: true, force: true }),
  (error: unknown) => {
    console.error(error)
    rmSync(dir, { recursive: true, force: true })
    process.exit(1)
  }
)

