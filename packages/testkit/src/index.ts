export {}
export * as Arbitraries from "./Arbitraries.js"
export * as FakeTokenizer from "./FakeTokenizer.js"
export * as Database from "./Database.js"
export * as Given from "./Given.js"
export * as ScriptedLanguageModel from "./ScriptedLanguageModel.js"
export * as RecordedLanguageModel from "./RecordedLanguageModel.js"
export * as FakeAnthropic from "./FakeAnthropic.js"
