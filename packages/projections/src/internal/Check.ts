/**
 * A schema's `is`, compiled to plain predicates over its AST: for the shapes the stored events are
 * made of (structs, tagged unions, arrays, literals, strings, numbers, booleans and refinements) it
 * answers what `Schema.is` answers without building the parser's results, so a value that passes
 * allocates nothing. Any other node is handed to `Schema.is` itself. A replay checks every event it
 * reads with one of these (see `EventCodec.decodeStored`); `Check.test.ts` holds it to `Schema.is`.
 */
import { Option, ParseResult, Schema, SchemaAST as AST } from "effect"

export type Check = (input: unknown) => boolean

const options: AST.ParseOptions = {}

const isObject = (input: unknown): input is Record<PropertyKey, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

/** A struct without index signatures: every declared property present (unless optional) and passing. */
const struct = (ast: AST.TypeLiteral): Check => {
  const properties = ast.propertySignatures.map((p) => ({ name: p.name, optional: p.isOptional, check: compile(p.type) }))
  return (input) => {
    if (!isObject(input)) return false
    for (const p of properties) {
      if (!Object.hasOwn(input, p.name)) {
        if (p.optional) continue
        return false
      }
      if (!p.check(input[p.name])) return false
    }
    return true
  }
}

/** An array of required elements followed by at most one rest element. */
const tuple = (ast: AST.TupleType): Check => {
  const elements = ast.elements.map((e) => compile(e.type))
  const rest = ast.rest.length === 0 ? undefined : compile(ast.rest[0]!.type)
  return (input) => {
    if (!Array.isArray(input) || input.length < elements.length) return false
    if (rest === undefined && input.length > elements.length) return false
    for (let i = 0; i < elements.length; i++) if (!elements[i]!(input[i])) return false
    for (let i = elements.length; i < input.length; i++) if (!rest!(input[i])) return false
    return true
  }
}

const union = (ast: AST.Union): Check => {
  const members = ast.types.map(compile)
  return (input) => {
    for (const member of members) if (member(input)) return true
    return false
  }
}

const refinement = (ast: AST.Refinement): Check => {
  const from = compile(ast.from)
  return (input) => from(input) && Option.isNone(ast.filter(input, options, ast))
}

const lazily = (ast: AST.Suspend): Check => {
  let check: Check | undefined
  return (input) => (check ??= compile(ast.f()))(input)
}

/** `Schema.is` for the node, for shapes compiled here only through their parts. */
const bySchema = (ast: AST.AST): Check => ParseResult.is(Schema.make(ast))

const compile = (ast: AST.AST): Check => {
  switch (ast._tag) {
    case "Literal":
      return (input) => input === ast.literal
    case "StringKeyword":
      return (input) => typeof input === "string"
    case "NumberKeyword":
      return (input) => typeof input === "number"
    case "BooleanKeyword":
      return (input) => typeof input === "boolean"
    case "TypeLiteral":
      return ast.indexSignatures.length === 0 ? struct(ast) : bySchema(ast)
    case "TupleType":
      return ast.rest.length <= 1 && ast.elements.every((e) => !e.isOptional) ? tuple(ast) : bySchema(ast)
    case "Union":
      return union(ast)
    case "Refinement":
      return refinement(ast)
    case "Suspend":
      return lazily(ast)
    case "Transformation":
      // `Schema.is` would check the decoded side here; a stored form has none to check.
      throw new Error(`checkOf: a transformation (${String(ast)}) in a schema meant to have none`)
    default:
      return bySchema(ast)
  }
}

/** The compiled `is` of a schema with no transformations (a stored form: `Schema.encodedBoundSchema`). */
export const checkOf = <A, I>(schema: Schema.Schema<A, I>): Check => compile(schema.ast)
