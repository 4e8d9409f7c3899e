/** The testkit modules that tests import from the package root (the others by their own paths). */
export * as Database from "./Database.js"
export * as FakeAnthropic from "./FakeAnthropic.js"
export * as FakeTelegram from "./FakeTelegram.js"
export * as FakeTokenizer from "./FakeTokenizer.js"
