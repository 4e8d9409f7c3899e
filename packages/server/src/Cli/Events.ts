/** `verbatim events [--after N] [--follow]`: the event log as JSON lines, optionally following new events. */
import { Command, Options } from "@effect/cli"
import { StoredEvent } from "@verbatim/domain/ApiResponses"
import { ReadModel } from "@verbatim/projections/ReadModel"
import { Console, Effect, Schema } from "effect"

const encode = Schema.encodeSync(StoredEvent)

/** One event as a JSON line, in the read API's encoding. */
export const jsonLine = (event: StoredEvent): string => JSON.stringify(encode(event))

const pageSize = 500

const options = {
  after: Options.integer("after").pipe(Options.withDefault(0), Options.withDescription("Start after this position")),
  follow: Options.boolean("follow").pipe(Options.withDescription("Keep printing new events until interrupted"))
}

export const command = Command.make("events", options, ({ after, follow }) =>
  Effect.gen(function*() {
    const model = yield* ReadModel
    let position = after
    for (;;) {
      const page = yield* model.events(position, pageSize)
      yield* Effect.forEach(page.events, (e) => Console.log(jsonLine(e)), { discard: true })
      position = page.nextAfter
      if (page.events.length === pageSize) continue
      if (!follow) return
      yield* Effect.sleep("500 millis")
    }
  })).pipe(Command.withDescription("Print the event log as JSON lines (position, stream, event)"))
