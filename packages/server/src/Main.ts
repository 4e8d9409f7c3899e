/** The composition `serve` runs: the start-up report over the HTTP service over the shared services. */
import { Effect, Layer } from "effect"
import * as Announce from "./Announce.js"
import { AppLive } from "./App.js"
import * as LogFormat from "./LogFormat.js"
import * as PrivateFiles from "./PrivateFiles.js"
import * as Server from "./Server.js"

/** Everything `serve` runs. */
export const ServerLive = Layer.merge(Announce.layer, PrivateFiles.layer).pipe(Layer.provideMerge(Server.layer(Server.ListenLive, AppLive)))

/** Run the server until interrupted, logging as JSON lines or, for a person at a terminal, as text. */
export const serve = (format: "json" | "text") => Layer.launch(ServerLive).pipe(Effect.provide(LogFormat.layer(format)))
