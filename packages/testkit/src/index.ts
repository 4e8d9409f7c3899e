export {}
export * as Arbitraries from "./Arbitraries.js"
