#!/usr/bin/env node
// The `verbatim` command: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import { register } from "tsx/esm/api"

register()
await import("../src/bin.ts")
