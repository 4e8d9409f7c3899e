/** Command-line flags of the benchmarks. */

/** The number after `--name`, or `fallback` when the flag is absent. */
export const numberFlag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(process.argv[at + 1])
}
