/**
 * Every program the local readers run, under the name they run it by, with the Debian package
 * that provides it. `Program.run` takes only these names, so a new program cannot be called
 * without a line here; the Dockerfile's runtime stage installs exactly these packages (checked by
 * `test/DockerfilePackages.test.ts`, and in a built image where Docker runs).
 */

/** One program a reader runs. */
export interface ProgramEntry {
  readonly program: string
  /** The Debian (bookworm) package whose install puts `program` on the PATH. */
  readonly debianPackage: string
  /** What it is run for. */
  readonly use: string
}

export const programs = [
  { program: "tesseract", debianPackage: "tesseract-ocr", use: "reads the text in photos and scanned pages (VERBATIM_VISION=tesseract)" },
  { program: "pdftotext", debianPackage: "poppler-utils", use: "takes a PDF's text layer, page by page" },
  { program: "pdftoppm", debianPackage: "poppler-utils", use: "draws a PDF page as a PNG, to read a scan or show the page" },
  { program: "ffprobe", debianPackage: "ffmpeg", use: "finds a recording's streams and length" },
  { program: "ffmpeg", debianPackage: "ffmpeg", use: "takes the audio out of a video and finds a long recording's silences" }
] as const satisfies ReadonlyArray<ProgramEntry>

/** A program the readers may run. */
export type ProgramName = (typeof programs)[number]["program"]

/** The package to install for `program`, for the message that says it is missing. */
export const debianPackageOf = (program: ProgramName): string =>
  programs.find((entry) => entry.program === program)?.debianPackage ?? program

/** Tesseract's languages when `VERBATIM_OCR_LANGUAGES` is unset. */
export const defaultOcrLanguages: ReadonlyArray<string> = ["eng"]

/** The Debian package of Tesseract's data for one language code (`eng` → `tesseract-ocr-eng`, `chi_sim` → `…-chi-sim`). */
export const ocrLanguagePackage = (code: string): string => `tesseract-ocr-${code.toLowerCase().replace(/_/g, "-")}`
