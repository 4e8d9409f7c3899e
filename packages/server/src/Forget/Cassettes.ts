/**
 * Recorded model answers (`VERBATIM_CASSETTE_DIR`) are files the service reads and its recording
 * tools write; each holds the request it answered, so a cassette of a session holds its words.
 * A forgetting deletes every cassette whose request or answer holds a forgotten text (a message's
 * whole text, or a long piece of one, as a cut message is sent) or a forgotten person's name; a
 * short text counts only whole, so a cassette sharing a common word is kept.
 */
import { readdir, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import type { Forgetting } from "@verbatim/domain/Forget/Redact"
import { nameKey } from "@verbatim/domain/Session/People"
import { Config, Effect, Option } from "effect"

/** A piece of a message this long, sent as part of it, is enough to know the message. */
const piece = 32

/** Every string in a JSON value, the JSON lines inside strings read as values too (a request's data lines). */
const strings = (value: unknown, into: Array<string>): Array<string> => {
  if (typeof value === "string") {
    into.push(value)
    for (const line of value.split("\n")) {
      if (!line.startsWith("{")) continue
      try {
        strings(JSON.parse(line), into)
      } catch {
        // Not a data line: its text was taken whole above.
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) strings(item, into)
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) strings(item, into)
  }
  return into
}

/** Whether a cassette's text holds anything the forgetting took. */
export const holds = (forgetting: Pick<Forgetting, "texts" | "names">, cassette: unknown): boolean => {
  const texts = forgetting.texts.filter((t) => t.trim().length > 0)
  return strings(cassette, []).some((s) =>
    forgetting.names.has(nameKey(s)) ||
    texts.some((t) => s === t || (Math.min(s.length, t.length) >= piece && (s.includes(t) || t.includes(s))))
  )
}

const cassetteText = (path: string) =>
  Effect.tryPromise(() => readFile(path, "utf8")).pipe(
    Effect.flatMap((text) => Effect.try(() => JSON.parse(text) as unknown)),
    Effect.option
  )

/** Delete the cassettes in `VERBATIM_CASSETTE_DIR` that hold forgotten words; how many went. */
export const dropCassettes = (forgetting: Pick<Forgetting, "texts" | "names">) =>
  Effect.gen(function*() {
    const directory = yield* Config.option(Config.string("VERBATIM_CASSETTE_DIR")).pipe(Effect.orElseSucceed(() => Option.none<string>()))
    if (Option.isNone(directory) || (forgetting.texts.length === 0 && forgetting.names.size === 0)) return 0
    const files = yield* Effect.tryPromise(() => readdir(directory.value)).pipe(Effect.orElseSucceed(() => []))
    let dropped = 0
    for (const file of files.filter((f) => f.endsWith(".json")).sort()) {
      const path = join(directory.value, file)
      const cassette = yield* cassetteText(path)
      if (Option.isNone(cassette) || !holds(forgetting, cassette.value)) continue
      yield* Effect.tryPromise(() => rm(path, { force: true })).pipe(
        Effect.tap(() => Effect.sync(() => dropped += 1)),
        Effect.catchAll((error) => Effect.logWarning("a cassette holding forgotten words could not be deleted", { path, error: String(error.error) }))
      )
    }
    return dropped
  })
