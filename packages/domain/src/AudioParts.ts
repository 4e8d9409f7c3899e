/**
 * Where to cut audio too long for one upload: into `parts` stretches of about equal length, each
 * cut moved back into the nearest silence before it (so no word is cut in two) when one lies
 * within the last fifth of its stretch, and at the stretch's end when none does. The cuts tile
 * the whole: every second of the audio lies in exactly one part.
 */

/** A quiet stretch `[start, end)` in seconds, as ffmpeg's `silencedetect` reports it. */
export interface Silence {
  readonly start: number
  readonly end: number
}

/** A part `[start, end)` in seconds. */
export interface AudioPart {
  readonly start: number
  readonly end: number
}

/** How far back from a stretch's end a cut may move to land in a silence, as a share of the stretch. */
const reach = 0.2

/** The parts of `duration` seconds cut into `parts`, at silences where there are some. */
export const audioParts = (duration: number, parts: number, silences: ReadonlyArray<Silence>): ReadonlyArray<AudioPart> => {
  const count = Math.max(1, Math.floor(parts))
  if (!(duration > 0) || count === 1) return [{ start: 0, end: Math.max(0, duration) }]
  const length = duration / count
  const cuts: Array<number> = []
  for (let k = 1; k < count; k++) {
    const target = k * length
    const previous = cuts.at(-1) ?? 0
    const quiet = silences
      .map((s) => (s.start + s.end) / 2)
      .filter((middle) => middle > previous && middle <= target && middle >= target - reach * length)
    cuts.push(quiet.length === 0 ? target : Math.max(...quiet))
  }
  const bounds = [0, ...cuts, duration]
  return bounds.slice(1).map((end, i) => ({ start: bounds[i]!, end }))
}

/** `lavfi.silence_start=1.5` / `lavfi.silence_end=2.25` lines (ffmpeg's `ametadata` print) as silences; one still open at the end runs to `duration`. */
export const silencesOf = (printed: string, duration: number): ReadonlyArray<Silence> => {
  const found: Array<Silence> = []
  let open: number | null = null
  for (const line of printed.split("\n")) {
    const match = /lavfi\.silence_(start|end)=(-?[\d.]+)/.exec(line)
    if (match === null) continue
    const at = Math.max(0, Number(match[2]))
    if (match[1] === "start") open = at
    else if (open !== null) {
      found.push({ start: open, end: at })
      open = null
    }
  }
  if (open !== null) found.push({ start: open, end: duration })
  return found
}
