/**
 * `verbatim demo [--record]`, the offline demo: the real server in-process on 127.0.0.1:0 over a temporary SQLite store,
 * configured through a `ConfigProvider` (webhook secret, allow-list, a one-second idle time), with
 * recorded model answers from `demo/cassettes`. It posts the bundled Telegram conversation to
 * the real webhook, waits for the scheduler to close and plan the session, and prints the notes,
 * the open questions, one audit and the accounting. `record` re-writes the cassette from
 * `demo/plan.json` after the prompt or the conversation changed.
 */
import { Command, Options } from "@effect/cli"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { type NoteId, SessionId, UserId } from "@verbatim/domain/Ids"
import { Json } from "@verbatim/domain/Json"
import { defaultModel } from "@verbatim/planner/AnthropicLanguageModel"
import { LanguageModel } from "@verbatim/planner/LanguageModel"
import { RecordedLanguageModel } from "@verbatim/planner/RecordedLanguageModel"
import { Notebook } from "@verbatim/projections/Notebook"
import { Clock, ConfigProvider, Console, Effect, Layer, Option, Schema } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as App from "../App.js"
import { PlanJob } from "../Planning/PlanJob.js"
import * as Planner from "../Planning/Planner.js"
import { Asking } from "../Ask/Asking.js"
import * as Server from "../Server.js"
import { renderAccounting } from "./Accounting.js"
import { renderAudit } from "./Audit.js"
import { CliError } from "./CliError.js"
import { ReminderBook } from "@verbatim/projections/ReminderBook"

/** The demo's folder: `conversation.json`, `plan.json` and `cassettes/`. */
const demoDirectory: string = fileURLToPath(new URL("../../demo/", import.meta.url))
const cassettes = join(demoDirectory, "cassettes")
const secret = "demo-webhook-secret"
const sessionId = SessionId.make("telegram:100000001:100000001:1")

/** The demo's configuration: its secret, its one sender, a one-second idle time, the recorded answers. */
const settings = (dataDir: string) =>
  ConfigProvider.fromMap(new Map([
    ["VERBATIM_DATA_DIR", dataDir],
    ["TELEGRAM_WEBHOOK_SECRET", secret],
    ["VERBATIM_ALLOWED_SENDERS", "telegram:100000001"],
    ["VERBATIM_SESSION_IDLE_SECONDS", "1"],
    ["VERBATIM_API_TOKEN", "demo-api-token"],
    ["VERBATIM_CASSETTE_DIR", cassettes]
  ]))

/** Answers every request with `demo/plan.json`, as the model would; `record` saves what it answered. */
const authoredModel = Layer.sync(LanguageModel, () => {
  const raw = Schema.decodeUnknownSync(Json)(JSON.parse(readFileSync(join(demoDirectory, "plan.json"), "utf8")))
  const usage = { inputTokens: 2140, outputTokens: 96, cacheReadTokens: 0, cacheWriteTokens: 0 }
  return LanguageModel.of({
    call: () => Effect.succeed({ raw, stopReason: "tool_use", usage, model: defaultModel, durationMs: 0 })
  })
})

const post = (base: string, body: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    client.execute(
      HttpClientRequest.post(`${base}/webhooks/telegram`).pipe(
        HttpClientRequest.setHeader("x-telegram-bot-api-secret-token", secret),
        HttpClientRequest.bodyText(body, "application/json")
      )
    )).pipe(Effect.map((response) => response.status))

const awaitPlanned = Effect.gen(function*() {
  const model = yield* Notebook
  for (;;) {
    const status = Option.map(yield* model.sessionAccounting(sessionId), (view) => view.status)
    if (Option.contains(status, "planned") || Option.contains(status, "failed")) return status
    yield* Effect.sleep("250 millis")
  }
}).pipe(
  Effect.timeoutFail({ duration: "60 seconds", onTimeout: () => new CliError({ message: "the session was not planned within 60 s" }) })
)

const printNotes = Effect.gen(function*() {
  const model = yield* Notebook
  const people = yield* model.people({ limit: 100 })
  const lines: Array<string> = ["", "Notes"]
  let first: NoteId | null = null
  for (const person of [...people.items].sort((a, b) => a.name.localeCompare(b.name))) {
    const notes = yield* model.notesByPerson(person.id, { limit: 100 })
    lines.push(`  ${person.name}`)
    for (const note of Option.match(notes, { onNone: () => [], onSome: (page) => page.items })) {
      first ??= note.id
      lines.push(...note.body.split("\n").map((line) => (line === "" ? "" : `    ${line}`)), "")
    }
  }
  const questions = yield* model.questions({ limit: 100, status: "open" })
  lines.push("Open questions")
  for (const q of questions.items) {
    const options = q.candidates.map((c) => (c._tag === "Unattached" ? "nobody in particular" : c.name)).join(" / ")
    lines.push(`  (${q.reason}) ${q.sources.map((s) => JSON.stringify(s.text)).join(" ")}: ${options}?`)
  }
  yield* Console.log(lines.join("\n"))
  return first
})

/** The reminders the session asked for, once its plan's are taken and every one due is delivered (the conversation is from 1 January, so each is due already). */
const printReminders = Effect.gen(function*() {
  const book = yield* ReminderBook
  const settled = Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    return (yield* book.owed(1)).length === 0 && (yield* book.due(now, 1)).length === 0
  })
  for (let tries = 0; tries < 120 && !(yield* settled); tries++) yield* Effect.sleep("250 millis")
  const reminders = yield* book.of(UserId.make("telegram:100000001"), ["scheduled", "delivered", "done", "cancelled"], 100)
  const lines = ["", "Reminders"]
  for (const r of reminders) {
    lines.push(`  "${r.quote}" (message ${r.messageId}): due ${r.dueLocal.replace("T", " ")} ${r.zone}, ${r.status}${r.late ? ", sent late" : ""}`)
  }
  yield* Console.log(lines.join("\n"))
})

/** The server as `serve` composes it over `app`, on a free loopback port. */
const run = <E>(app: Layer.Layer<Layer.Layer.Success<typeof App.AppLive>, E>) =>
  Effect.gen(function*() {
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "verbatim-demo-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const context = yield* Layer.build(Server.layer(Server.listenLoopback, app)).pipe(Effect.withConfigProvider(settings(dataDir)))
    const server = Effect.provide(Effect.flatMap(HttpServer.HttpServer, (s) => Effect.succeed(s.address)), context)
    const address = yield* server
    const base = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
    yield* Console.log(`Verbatim demo: the server on ${base}, a temporary store in ${dataDir}, recorded model answers`)
    const updates = JSON.parse(readFileSync(join(demoDirectory, "conversation.json"), "utf8")) as ReadonlyArray<unknown>
    const statuses = yield* Effect.forEach(updates, (u) => post(base, JSON.stringify(u)))
    yield* Console.log(`posted ${updates.length} Telegram updates to POST /webhooks/telegram: HTTP ${statuses.join(" ")}`)
    yield* Console.log("waiting for the session to go idle (1 s), close and be planned…")
    const status = yield* Effect.provide(awaitPlanned, context)
    if (Option.contains(status, "failed")) {
      return yield* new CliError({
        message: "planning failed: the recorded answer does not match this prompt or conversation; " +
          "re-record it with `npm run verbatim -- demo --record`"
      })
    }
    const first = yield* Effect.provide(printNotes, context)
    yield* Effect.provide(printReminders, context)
    const audit = first === null ? Option.none() : yield* Effect.provide(Effect.flatMap(Notebook, (m) => m.noteAudit(first)), context)
    if (Option.isSome(audit)) yield* Console.log(`\nAudit of ${first}\n${renderAudit(audit.value)}`)
    const accounting = yield* Effect.provide(Effect.flatMap(Notebook, (m) => m.sessionAccounting(sessionId)), context)
    if (Option.isSome(accounting)) yield* Console.log(`\nAccounting\n${renderAccounting(accounting.value)}`)
  }).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer))

/** The demo over the recorded answers in `demo/cassettes`, chosen by configuration as `serve` chooses its model. */
export const demo = run(App.AppLive)

/** The demo over `demo/plan.json`, writing the cassette its request hashes to. */
export const record = run(App.layer(Layer.merge(PlanJob.layer, Asking.layerNoModel).pipe(
  Layer.provide(Planner.layer(RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(authoredModel))))
)))

/** `verbatim demo [--record]`, what `npm run demo` runs. */
export const command = Command.make(
  "demo",
  { record: Options.boolean("record").pipe(Options.withDescription("Re-write the demo's cassette from demo/plan.json")) },
  (options) => (options.record ? record : demo)
).pipe(Command.withDescription("Run the offline end-to-end demo on a temporary store with recorded model answers"))
