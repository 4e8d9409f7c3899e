/**
 * A recorded store whose session asked for reminders, for `verbatim replay` on reminders: one
 * session of four messages sent on Wednesday 2026-03-25 at 18:00 in Lisbon, planned live under a
 * reminders prompt (`v2`), its reminders taken; the user marked the Friday one done and cancelled
 * the plumber one straight away. A candidate prompt (`v3`) is recorded filing the messages the
 * same way but losing both, moving the birthday one to the evening and adding the dentist.
 */
import * as Directory from "@verbatim/domain/Eval/Directory"
import type { Plan, PlanReminder } from "@verbatim/domain/Plan"
import { ReminderCommand } from "@verbatim/domain/Reminders/Decide"
import { proposedReminders } from "@verbatim/domain/Reminders/FromPlan"
import type { SessionId } from "@verbatim/domain/Ids"
import { sentAtOf } from "@verbatim/domain/Message"
import { planStep } from "@verbatim/testkit/ScriptedLanguageModel"
import { DateTime, Effect } from "effect"
import * as Ingest from "../src/Inbox/Ingest.js"
import { PlanJob } from "../src/Planning/PlanJob.js"
import * as Actions from "../src/Reminders/Actions.js"
import * as Intake from "../src/Reminders/Intake.js"
import { replaySession } from "../src/Replay.js"
import { load } from "../src/Sessions.js"
import { capture, modelLayer, promptsAndCassettes, servicesLayer } from "./ReplayFixture.js"

export const session = "telegram:100000001:100000001:1" as SessionId

export const zone = "Europe/Lisbon"

const texts = [
  "remind me on Friday to send Ana the deck",
  "call the plumber tomorrow",
  "Tom's birthday is on 4 April, remind me the day before",
  "book the dentist next week"
]

const unattached = [1, 2, 3, 4].map((seq) => ({ sourceItemSeqs: [seq], directives: [] }))
const plan = (reminders: ReadonlyArray<PlanReminder>): Plan => ({ people: [], unattached, unclear: [], botMessages: [], reminders })
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 })

const live = planStep(plan([
  { seq: 1, quote: texts[0]!, due: "2026-03-27T09:00" },
  { seq: 2, quote: texts[1]!, due: "2026-03-26T09:00" },
  { seq: 3, quote: "remind me the day before", due: "2026-04-03T09:00" }
]), { usage: usage(700, 70) })

const candidate = planStep(plan([
  { seq: 3, quote: "remind me the day before", due: "2026-04-03T18:00" },
  { seq: 4, quote: texts[3]!, due: "2026-03-30T09:00" }
]), { usage: usage(750, 60) })

/** Build the store and cassettes in `dir`; the environment the CLI runs with. */
export const record = (dir: string) =>
  Effect.gen(function*() {
    const { cassettes, prompts } = promptsAndCassettes(dir, "v2", "v3", "Set a reminder only for the words that ask for one.")
    yield* Effect.gen(function*() {
      for (const [n, text] of texts.entries()) yield* capture(n + 1, text, DateTime.unsafeMake(Date.parse("2026-03-25T18:00:00Z")))
      yield* Ingest.closeSession(session, "command")
      yield* (yield* PlanJob).run(session)
      const { state } = yield* load(session)
      yield* Intake.takePlan(state.appliedPlans[0]!, session)
      const sources = state.messages.map((m) => ({ seq: m.seq, messageId: m.id, text: m.text, sentAt: sentAtOf(m) }))
      const [friday, plumber] = proposedReminders([{ seq: 1, quote: texts[0]!, due: "2026-03-27T09:00" }, { seq: 2, quote: texts[1]!, due: "2026-03-26T09:00" }], sources, zone)
      const now = yield* DateTime.now
      if (friday?._tag !== "Schedule" || plumber?._tag !== "Schedule") return yield* Effect.die("the fixture's reminders were not scheduled")
      yield* Actions.act(friday.reminderId, ReminderCommand.Done({ by: state.user!, now }))
      yield* Actions.act(plumber.reminderId, ReminderCommand.Cancel({ by: state.user!, now, reason: "user" }))
      yield* replaySession(session, { promptVersion: "v3", repeat: 1, people: () => Directory.make([]) })
    }).pipe(Effect.provide(servicesLayer(dir, prompts, modelLayer(cassettes, [live, candidate]), "v2", zone)))
    return { VERBATIM_DATA_DIR: dir, VERBATIM_PROMPT_DIR: prompts, VERBATIM_PROMPT_VERSION: "v2", VERBATIM_CASSETTE_DIR: cassettes, VERBATIM_DEFAULT_TIMEZONE: zone }
  })
