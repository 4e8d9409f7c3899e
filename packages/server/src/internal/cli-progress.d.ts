/** The part of cli-progress 3.12 used here (its types are not installed). */
declare module "cli-progress" {
  export interface Options {
    readonly format?: string
    readonly stream?: NodeJS.WritableStream
    readonly hideCursor?: boolean
    readonly clearOnComplete?: boolean
  }
  export class SingleBar {
    constructor(options: Options, preset?: unknown)
    start(total: number, startValue: number, payload?: Record<string, unknown>): void
    update(value: number, payload?: Record<string, unknown>): void
    stop(): void
  }
  export const Presets: { readonly shades_classic: unknown }
}
