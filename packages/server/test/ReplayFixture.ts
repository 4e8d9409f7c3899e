/**
 * A recorded multi-session store for the replay and CLI tests: three sessions of one sender
 * planned in-process under prompt v1 by a scripted model whose answers are written as cassettes,
 * plus cassettes for prompt v2 (a planted second version that answers differently). The CLI then
 * runs as a subprocess over the same store, prompt folder and cassettes.
 */
import * as Directory from "@verbatim/domain/Eval/Directory"
import type { Plan } from "@verbatim/domain/Plan"
import type { PersonId, SessionId } from "@verbatim/domain/Ids"
import * as SessionState from "@verbatim/domain/Session/State"
import type { LanguageModel } from "@verbatim/planner/LanguageModel"
import { LanguageModelError } from "@verbatim/planner/LanguageModelError"
import { packagedPromptDirectory, PromptRegistry } from "@verbatim/planner/PromptRegistry"
import { Tokenizer } from "@verbatim/planner/Tokenizer"
import { EventStore } from "@verbatim/projections/EventStore"
import * as Store from "@verbatim/projections/Store"
import { RecordedLanguageModel } from "@verbatim/planner/RecordedLanguageModel"
import { planStep, ScriptedLanguageModel, type ScriptStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { Array as Arr, ConfigProvider, DateTime, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { IdGenerator } from "../src/IdGenerator.js"
import * as Ingest from "../src/Inbox/Ingest.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import { PlanningHold } from "../src/Planning/PlanningHold.js"
import { PlanningConfig, planSession } from "@verbatim/planner/Planning"
import { replaySession } from "../src/Replay.js"
import { sessionStream } from "@verbatim/domain/Streams"
import { TimeZones } from "../src/TimeZones.js"

export const sessions = {
  one: "telegram:100000001:100000001:1" as SessionId,
  two: "telegram:100000001:100000001:2" as SessionId,
  three: "telegram:100000001:100000001:3" as SessionId
}

const texts: ReadonlyArray<ReadonlyArray<string>> = [
  ["Ana starts at the clinic in March.", "She wants a quiet desk by the window.", "remind me on Friday: Ana's birthday is 4 April", "Tom moved to Lisbon"],
  ["Tom's new number ends in 0199", "lunch with Ana and Tom on Tuesday"],
  ["Ana prefers tea"]
]

const plan = (p: Partial<Plan>): Plan => ({ people: [], unattached: [], unclear: [], botMessages: [], ...p })
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 })
const note = (seqs: Array<number>, directives: Array<string> = []) => ({ sourceItemSeqs: seqs, directives })

/** The live plans the fixture recorded under prompt v1, by session. */
export const v1 = {
  one: planStep(plan({
    people: [
      { contactId: null, name: "Ana", notes: [note([1, 2]), note([3], ["remind me on Friday: "])] },
      { contactId: null, name: "Tom", notes: [note([4])] }
    ]
  }), { usage: usage(1000, 100) }),
  two: planStep(plan({
    people: [{ contactId: "person_2", name: "Tom", notes: [note([1])] }],
    unclear: [{ sourceItemSeqs: [2], candidates: ["Ana", "Tom"] }]
  }), { usage: usage(800, 80) }),
  three: planStep(plan({ people: [{ contactId: "person_1", name: "Ana", notes: [note([1])] }] }), { usage: usage(300, 30) })
}

const v2 = {
  one: planStep(plan({
    people: [{ contactId: null, name: "Ana", notes: [note([1, 2, 3], ["remind me on Friday:"])] }],
    unattached: [note([4])]
  }), { usage: usage(1100, 120) }),
  two: planStep(plan({
    people: [
      { contactId: "person_2", name: "Tom", notes: [note([1])] },
      { contactId: "person_1", name: "Ana", notes: [note([2])] }
    ]
  }), { usage: usage(900, 90) })
}

/** Where the fixture lives: `VERBATIM_DATA_DIR`, the prompt folder and the cassettes. */
export interface Recorded {
  readonly env: Record<string, string>
  readonly promptHash: string
}

export const modelLayer = (cassettes: string, steps: ReadonlyArray<ScriptStep>) =>
  RecordedLanguageModel.layerRecording(cassettes).pipe(Layer.provide(ScriptedLanguageModel.layer(steps)))

/** The plan job's services over the store in `dir`, the prompts (the default `v1`) and the user's zone (UTC). */
export const servicesLayer = (dir: string, prompts: string, model: Layer.Layer<LanguageModel>, defaultVersion = "v1", zone = "UTC") =>
  PlanJob.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(
      model,
      PromptRegistry.layer({ directory: prompts, defaultVersion }),
      Tokenizer.layer,
      PlanningConfig.layerConfig,
      IdGenerator.layerTest,
      PlanningHold.layer,
      TimeZones.layerZone(zone)
    )),
    Layer.provideMerge(Store.layerSqlite({ filename: join(dir, "verbatim.db") })),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
  )

/** Alice's message `n`, sent at `sentAt`. */
export const capture = (n: number, text: string, sentAt = DateTime.unsafeMake(0)) =>
  Ingest.capture({
    _tag: "NewMessage",
    provider: "telegram",
    providerMessageId: `100000001:${n}`,
    senderId: "100000001",
    chatId: "100000001",
    senderName: "Alice",
    text,
    kind: "text",
    forwardedFrom: null,
    replyTo: null,
    attachments: [], links: [], mediaGroup: null,
    sentAt
  })

const messagesOf = (sessionId: SessionId) =>
  Effect.map(Effect.flatMap(EventStore, (store) => store.readStream(sessionStream(sessionId))), (events) =>
    SessionState.fold(events.map((e) => e.event)).messages)

const people = [{ id: "person_1" as PersonId, name: "Ana" }, { id: "person_2" as PersonId, name: "Tom" }]

/** The prompt folder and cassettes of a fixture in `dir`: the packaged `live` prompt, and `candidate` as it with one more line. */
export const promptsAndCassettes = (dir: string, live: string, candidate: string, line: string) => {
  const prompts = join(dir, "prompts")
  mkdirSync(prompts)
  copyFileSync(join(packagedPromptDirectory, `${live}.md`), join(prompts, `${live}.md`))
  writeFileSync(join(prompts, `${candidate}.md`), readFileSync(join(prompts, `${live}.md`), "utf8") + `\n${line}\n`)
  return { prompts, cassettes: join(dir, "cassettes") }
}

/**
 * Build the store and cassettes in `dir`. Session three's plan failed (a refusal); the same
 * request is then recorded answering, so a retry succeeds.
 */
export const record = (dir: string) =>
  Effect.gen(function*() {
    const { cassettes, prompts } = promptsAndCassettes(dir, "v1", "v2", "Keep everything about one person in one note.")
    const refused = new LanguageModelError({ reason: "refused", message: "no record_plan call (stop_reason refusal)" })
    yield* Effect.gen(function*() {
      const jobs = yield* PlanJob
      let n = 0
      for (const [index, session] of texts.entries()) {
        for (const text of session) yield* capture(++n, text)
        const sessionId = Object.values(sessions)[index]!
        yield* Ingest.closeSession(sessionId, "command")
        yield* jobs.run(sessionId)
      }
    }).pipe(Effect.provide(servicesLayer(dir, prompts, modelLayer(cassettes, [v1.one, v1.two, refused]))))
    yield* Effect.gen(function*() {
      const v2Replay = { promptVersion: "v2", repeat: 1, people: () => Directory.make([]) }
      yield* replaySession(sessions.one, v2Replay)
      yield* replaySession(sessions.two, v2Replay)
      const one = yield* messagesOf(sessions.one)
      const three = yield* messagesOf(sessions.three)
      yield* planSession(one as Arr.NonEmptyReadonlyArray<(typeof one)[number]>, people, "v2")
      yield* planSession(three as Arr.NonEmptyReadonlyArray<(typeof three)[number]>, people)
    }).pipe(Effect.provide(servicesLayer(dir, prompts, modelLayer(cassettes, [v2.one, v2.two, v2.one, v1.three]))))
    return {
      env: { VERBATIM_DATA_DIR: dir, VERBATIM_PROMPT_DIR: prompts, VERBATIM_PROMPT_VERSION: "v1", VERBATIM_CASSETTE_DIR: cassettes },
      promptHash: createHash("sha256").update(readFileSync(join(prompts, "v1.md"))).digest("hex")
    } satisfies Recorded
  })
