/**
 * Real audio and images for the media path, made by Debian's tools (installed by `.ci/run`):
 * `espeak-ng` speaks a sentence to WAV, `ffmpeg` encodes it as OGG/Opus (what a voice note is)
 * or puts it under a picture as an MP4 video, ImageMagick renders text into a PNG or a JPEG (in
 * DejaVu Sans, from `fonts-dejavu-core`).
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"

const run = (command: string, args: ReadonlyArray<string>, input?: Uint8Array) =>
  Effect.async<Uint8Array>((resume) => {
    const child = execFile(command, [...args], { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resume(
        error === null
          ? Effect.succeed(new Uint8Array(stdout))
          : Effect.dieMessage(`${command} failed (is it installed? .ci/run installs it): ${error.message} ${stderr.toString()}`)
      ))
    if (input !== undefined) child.stdin?.end(input)
  })

/** `sentence` spoken by espeak-ng, as a 22,050 Hz mono PCM WAV. */
export const spokenWav = (sentence: string) => run("espeak-ng", ["--stdout", sentence])

/** `sentence` spoken and encoded as OGG/Opus, the format of a Telegram or WhatsApp voice note. */
export const spokenOgg = (sentence: string) =>
  Effect.flatMap(spokenWav(sentence), (wav) =>
    run("ffmpeg", ["-loglevel", "error", "-f", "wav", "-i", "pipe:0", "-c:a", "libopus", "-b:a", "24k", "-f", "ogg", "pipe:1"], wav))

/** An MP4 video (H.264, black) with `sentence` spoken on its AAC sound track, as a phone records one. */
export const spokenMp4 = (sentence: string) =>
  Effect.flatMap(spokenWav(sentence), (wav) =>
    run("ffmpeg", [
      "-loglevel", "error", "-f", "lavfi", "-i", "color=c=black:s=160x120:r=10", "-f", "wav", "-i", "pipe:0", "-shortest",
      "-c:v", "libx264", "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov", "-f", "mp4", "pipe:1"
    ], wav))

/** An MP4 video of `seconds` seconds with no sound track at all. */
export const silentMp4 = (seconds: number) =>
  run("ffmpeg", [
    "-loglevel", "error", "-f", "lavfi", "-i", `color=c=black:s=160x120:r=10:d=${seconds}`,
    "-c:v", "libx264", "-movflags", "frag_keyframe+empty_moov", "-f", "mp4", "pipe:1"
  ])

/** An MP4 of `seconds` seconds: a tiny black picture over a steady tone (which Opus cannot shrink much), as a long recording. */
export const toneMp4 = (seconds: number) =>
  run("ffmpeg", [
    "-loglevel", "error", "-f", "lavfi", "-i", `color=c=black:s=16x16:r=1:d=${seconds}`,
    "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}:sample_rate=8000`,
    "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-b:a", "16k", "-shortest",
    "-movflags", "frag_keyframe+empty_moov", "-f", "mp4", "pipe:1"
  ])

/** An RGB JPEG of `width`×`height` pixels with `text` written on it in black on white, as a scanner writes a page. */
export const textJpeg = (text: string, width: number, height: number) =>
  run("convert", [
    "-size", `${width}x${height}`, "xc:white", "-font", "DejaVu-Sans", "-fill", "black", "-pointsize", "48", "-gravity", "center",
    "-annotate", "+0+0", text, "-type", "TrueColor", "jpg:-"
  ])

/** A PNG of `width`×`height` pixels with `text` written on it in black on white. */
export const textPng = (text: string, width: number, height: number) =>
  run("convert", ["-size", `${width}x${height}`, "xc:white", "-font", "DejaVu-Sans", "-fill", "black", "-pointsize", "48", "-gravity", "center", "-annotate", "+0+0", text, "png:-"])
