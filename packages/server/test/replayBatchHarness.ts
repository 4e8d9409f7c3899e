/**
 * The replay over the recorded fixture store with a real Anthropic client against a local fake:
 * the Messages API (one call at a time) or the Message Batches API (`--batch`). Answers are
 * chosen by the session a request is about, so both paths get the same answers.
 */
import type { Plan } from "@verbatim/domain/Plan"
import * as AnthropicLanguageModel from "@verbatim/planner/AnthropicLanguageModel"
import * as Store from "@verbatim/projections/Store"
import type { FakeBatchRequest, FakeEntry } from "@verbatim/testkit/FakeAnthropicBatches"
import { ConfigProvider, Layer } from "effect"
import { TimeZones } from "../src/TimeZones.js"
import { join } from "node:path"
import * as Planner from "../src/Planning/Planner.js"

const plan = (p: Partial<Plan>): Plan => ({ people: [], unattached: [], unclear: [], botMessages: [], ...p })
const note = (seqs: Array<number>) => ({ sourceItemSeqs: seqs, directives: [] })

/** The candidate's answers, by a text each session's request carries. */
export const answers = {
  one: {
    marker: "Ana starts at the clinic",
    plan: plan({ people: [{ contactId: null, name: "Ana", notes: [note([1, 2, 3])] }], unattached: [note([4])] }),
    usage: { input_tokens: 1100, output_tokens: 120 }
  },
  two: {
    marker: "Tom's new number",
    plan: plan({ people: [{ contactId: "person_2", name: "Tom", notes: [note([1])] }, { contactId: "person_1", name: "Ana", notes: [note([2])] }] }),
    usage: { input_tokens: 900, output_tokens: 90 }
  },
  three: {
    marker: "Ana prefers tea",
    plan: plan({ people: [{ contactId: "person_1", name: "Ana", notes: [note([1])] }] }),
    usage: { input_tokens: 300, output_tokens: 30 }
  }
} as const

export type SessionName = keyof typeof answers

/** Which session a batch request is about. */
export const sessionOf = (request: FakeBatchRequest): SessionName =>
  (Object.keys(answers) as Array<SessionName>).find((name) => request.params.messages[0]!.content.includes(answers[name].marker))!

/** The session's answer as a batch result. */
export const succeeded = (name: SessionName): FakeEntry => ({ type: "succeeded", input: answers[name].plan, usage: answers[name].usage })

export const model = "claude-haiku-4-5"

const settings = (dir: string, baseUrl: string) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map([
    ["ANTHROPIC_API_KEY", "sk-ant-test"],
    ["ANTHROPIC_BASE_URL", baseUrl],
    ["VERBATIM_MODEL", model],
    ["VERBATIM_PROMPT_DIR", join(dir, "prompts")],
    ["VERBATIM_PROMPT_VERSION", "v1"],
    ["VERBATIM_BATCH_POLL_INTERVAL", "5 millis"],
    ["VERBATIM_BATCH_RESUBMITS", "1"],
    ["VERBATIM_MODEL_RETRY_BASE", "1 millis"]
  ])))

const overStore = <A, E>(dir: string, baseUrl: string, planner: Layer.Layer<A, E>) =>
  Layer.merge(planner, TimeZones.layerZone("UTC")).pipe(
    Layer.provideMerge(Store.layerSqlite({ filename: join(dir, "verbatim.db") })),
    Layer.provide(settings(dir, baseUrl))
  )

/** The replay's services with the Messages API at `baseUrl`. */
export const directLayer = (dir: string, baseUrl: string) =>
  overStore(dir, baseUrl, Planner.layer(AnthropicLanguageModel.layerConfig))

/** The replay's services with the Message Batches API at `baseUrl`, its batches kept in `stateFile`. */
export const batchLayer = (dir: string, baseUrl: string, stateFile: string) =>
  overStore(dir, baseUrl, Planner.batchLayerConfig(stateFile))
