/**
 * Cost per capture: the tokens one planning request spends per captured message for a
 * 20-message session, split into what the prompt cache serves on repeated calls (system prompt
 * and tool definition carry `cache_control`) and what each session pays anew. Counted with the
 * default estimator (UTF-8 bytes, an upper bound), on the request the planner really builds.
 * Usage: npm run bench:cost
 */
import type { PersonId } from "@verbatim/domain/Ids"
import { buildRequest, toolPromptText } from "@verbatim/planner/BuildRequest"
import { contractOf } from "@verbatim/planner/PlanningTool"
import { planningLimitsConfig, requestSettings } from "@verbatim/planner/PlanningSettings"
import { packagedPromptDirectory, PromptRegistry } from "@verbatim/planner/PromptRegistry"
import type { PlanningMessage } from "@verbatim/planner/RenderRequest"
import { messageLine } from "@verbatim/planner/RenderRequest"
import * as TokenEstimator from "@verbatim/planner/TokenEstimator"
import { Effect, Either } from "effect"

const texts = [
  "Ana starts at the clinic on 3 March.", "She would like a desk by the window.",
  "Ben called: the roof repair is booked for the 12th.", "remind me to send him the deposit",
  "I keep thinking the garden needs a second bed for herbs.", "Carla's daughter got into the conservatory!",
  "She plays the cello, has done since she was six.", "Dan is allergic to peanuts, keep that in mind for the party.",
  "Ana asked whether the parking permit is included.", "Ben prefers calls after 6pm.",
  "Idea: a shared calendar for the family birthdays.", "Carla said the recital is on 21 June at 7.",
  "Dan's new number ends in 4471.", "Ana's manager is called Rui.", "Book the dentist before the end of the month.",
  "Ben mentioned his brother is moving to Porto.", "Carla wants the scores back by Friday.",
  "Dan will bring the folding chairs.", "thanks!", "That's all for today."
]
const messages: Array<PlanningMessage> = texts.map((text, i) => ({
  seq: i + 1,
  kind: "text",
  forwardedFrom: i === 0 ? "Marta" : null,
  replyToSeq: null,
  text
}))
const contacts = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fred", "Gil", "Hana", "Ivo", "Jo"].map((name, i) => ({
  id: `person_${i + 1}` as PersonId,
  name
}))

const registry = await Effect.runPromise(PromptRegistry.make({ directory: packagedPromptDirectory, defaultVersion: "v2" }))
const count = TokenEstimator.textTokens
/** The limits the server runs with (their defaults unless the environment sets them). */
const limits = await Effect.runPromise(planningLimitsConfig)
const contract = contractOf(registry.current.version)
const recordPlanTool = contract.tool
const settings = Either.getOrThrow(requestSettings(limits, registry.current.text, count, { tool: contract.tool, zone: contract.clock ? "UTC" : null }))
const built = Either.getOrThrow(buildRequest(registry.current.text, contacts, messages as [PlanningMessage, ...Array<PlanningMessage>], settings))

const system = count(built.request.system)
const tool = count(toolPromptText(recordPlanTool))
const user = count(built.request.userContent)
const input = TokenEstimator.requestTokens({
  system: built.request.system,
  tools: [{ name: recordPlanTool.name, description: recordPlanTool.description, input_schema: recordPlanTool.inputSchema }],
  messages: [{ role: "user", content: built.request.userContent }]
})
const overhead = input - system - tool - user
const messageText = messages.reduce((sum, m) => sum + count(m.text), 0)
const messageLines = messages.reduce((sum, m) => sum + count(messageLine(m)), 0)
const cached = system + tool
const n = messages.length

console.log(`Prompt ${registry.current.version} (${registry.current.hash.slice(0, 12)}), ${n} messages, ${contacts.length} contacts, estimator tokens (upper bound)\n`)
console.log("| part | tokens | per captured message |")
console.log("|---|---|---|")
const row = (label: string, tokens: number) => console.log(`| ${label} | ${tokens} | ${(tokens / n).toFixed(1)} |`)
row("system prompt (cached)", system)
row("tool definition and plan schema (cached)", tool)
row("user turn: contacts, framing and messages", user)
row("request and tool-use framing", overhead)
row("whole input", input)
row("the messages' own text", messageText)
row("message lines (text + seq, kind, JSON framing)", messageLines)
console.log(`\nshare of input the prompt cache serves on repeated calls: ${((cached / input) * 100).toFixed(1)}%`)
console.log(`uncached input per captured message: ${((input - cached) / n).toFixed(1)} tokens`)
console.log(`prompt overhead per message (line framing beyond the text): ${((messageLines - messageText) / n).toFixed(1)} tokens`)
