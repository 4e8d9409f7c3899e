/** `verbatim events [--after CURSOR] [--follow]`: the event log as JSON lines, optionally following new events. */
import { Command, Options } from "@effect/cli"
import { EventCursor, StoredEvent } from "@verbatim/domain/ApiResponses"
import { EventLog } from "@verbatim/projections/EventLog"
import { Console, Effect, Option, Schema } from "effect"

const encode = Schema.encodeSync(StoredEvent)

/** One event as a JSON line, in the read API's encoding. */
export const jsonLine = (event: StoredEvent): string => JSON.stringify(encode(event))

const pageSize = 500

const options = {
  after: Options.text("after").pipe(
    Options.withSchema(EventCursor),
    Options.optional,
    Options.withDescription("Start after this event's cursor (each line's \"cursor\", like 0:42)")
  ),
  follow: Options.boolean("follow").pipe(Options.withDescription("Keep printing new events until interrupted"))
}

export const command = Command.make("events", options, ({ after, follow }) =>
  Effect.gen(function*() {
    const model = yield* EventLog
    let cursor = Option.getOrUndefined(after)
    for (;;) {
      const page = yield* model.events(cursor, pageSize)
      yield* Effect.forEach(page.events, (e) => Console.log(jsonLine(e)), { discard: true })
      cursor = page.nextAfter
      if (page.events.length === pageSize) continue
      if (!follow) return
      yield* Effect.sleep("500 millis")
    }
  })).pipe(Command.withDescription("Print the event log as JSON lines (position, stream, event)"))
