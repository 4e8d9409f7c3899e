export {}
export * as Arbitraries from "./Arbitraries.js"
export * as FakeTokenizer from "./FakeTokenizer.js"
export * as Database from "./Database.js"
export * as Given from "./Given.js"
