/** What the tests read from a Dockerfile: its stages' `FROM`, its `ARG` defaults, and the packages each stage's `apt-get install` adds. */

/** One build stage: its `FROM` line (after `FROM `) and its instructions. */
export interface Stage {
  readonly from: string
  readonly instructions: ReadonlyArray<string>
}

/** A Dockerfile's instructions, continuation lines joined, comments and blank lines dropped. */
export const instructions = (text: string): ReadonlyArray<string> =>
  text
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => line !== "")

/** The `ARG NAME=VALUE` lines before the first stage, by name. */
export const globalArgs = (text: string): Readonly<Record<string, string>> => {
  const all = instructions(text)
  const before = all.slice(0, Math.max(0, all.findIndex((line) => /^FROM /i.test(line))))
  return Object.fromEntries(before.flatMap((line) => {
    const found = /^ARG ([A-Za-z_][A-Za-z0-9_]*)=(\S+)$/i.exec(line)
    return found === null ? [] : [[found[1]!, found[2]!]]
  }))
}

/** The stages in order. */
export const stages = (text: string): ReadonlyArray<Stage> =>
  instructions(text).reduce<Array<{ from: string; instructions: Array<string> }>>((acc, line) => {
    if (/^FROM /i.test(line)) acc.push({ from: line.slice(5), instructions: [] })
    else acc.at(-1)?.instructions.push(line)
    return acc
  }, [])

/** Every package a stage's `RUN … apt-get install …` names (its options left out), sorted. */
export const aptPackages = (stage: Stage): ReadonlyArray<string> =>
  stage.instructions
    .filter((line) => /^RUN /i.test(line))
    .flatMap((line) => line.slice(4).split(/&&|;|\|\|/))
    .map((command) => command.trim().split(" "))
    .filter((words) => words[0] === "apt-get" && words.includes("install"))
    .flatMap((words) => words.slice(words.indexOf("install") + 1).filter((word) => !word.startsWith("-")))
    .sort()
