/** The release this build is: what `verbatim --version` prints and what the API's OpenAPI document (and `/docs`) states. */
export const version = "0.1.0"
