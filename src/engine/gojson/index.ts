/**
 * gojson — byte-exact emulation of Go 1.19's encoding/json (plus the strconv / fmt / net bits its
 * messages and outputs depend on), so simulated CNI plugins print what the real Go plugins print.
 * Pure TypeScript, no DOM / Node APIs; no function throws. Verified against real Go 1.19 output
 * (golden tables in ./golden, regenerated with the Go program there).
 *
 * Strings: a JS string stands for its UTF-8 bytes; lone surrogates stand for U+FFFD.
 *
 * Syntax
 *   jsonSyntaxError(text)            -> null | the *SyntaxError message json.Unmarshal returns
 *
 * Decoding (json.Unmarshal)
 *   parseGo(text)                    -> {value, error, typeError} decoding into interface{}:
 *                                       objects -> plain objects, numbers -> float64, ...
 *   decode(text, type, init?)        -> {value, error, typeError} decoding into a Go type described
 *                                       with the DSL below, starting from `init` (default: zero
 *                                       value). `error` is exactly Go's err.Error(); the first
 *                                       *UnmarshalTypeError is reported after decoding completes,
 *                                       custom unmarshaler errors abort (the value then holds Go's
 *                                       partial fill). Values: string, boolean, number (all int and
 *                                       float kinds; a bigint for integers beyond 2^53), null for
 *                                       nil pointer/slice/map/interface, [] for an empty non-nil
 *                                       slice, plain objects for structs (one property per field,
 *                                       default name: the JSON name; embedded structs nested under
 *                                       their type name) and maps. A pointer is its pointee's value,
 *                                       boxed as {elem} when the pointee can itself be null
 *                                       (isBoxedPtr), e.g. *net.IP or *[]string.
 *   goUnquote(quoted)                -> Go's unquote of a JSON string literal, or null
 *
 * Type DSL (types.ts)
 *   goString goBool goInt goInt64 goUint goFloat64 goAny basic(kind, name?) ptr(t) slice(t, name?)
 *   map(elem, name?, key?) struct(qualifiedName | undefined, fields | () => fields)
 *   field(goName, type, jsonTag?, {prop?, unexported?, rawTag?}) embed(type, {tag?, prop?})
 *   custom types: {kind: 'custom', name, zero, nullable?, unmarshalJSON?, unmarshalText?,
 *                  marshalJSON?, marshalText?, isEmpty?}; callbacks return {value} or {error}
 *                  where error is a message or an UnmarshalTypeError (Go then adds the field
 *                  context, as for errors returned by UnmarshalJSON).
 *   typeString(t)                    -> reflect.Type.String(), e.g. "map[string]interface {}"
 *   zeroValue(t), isBoxedPtr(ptrType), propOf(field)
 *
 * Encoding (json.Marshal / MarshalIndent / Encoder.Encode)
 *   marshal(value, {indent?, prefix?, escapeHTML?, trailingNewline?, sortMapKeys?})
 *                                    -> {text, error}; plain JS values, objects in insertion
 *                                       order (Go structs), JS Map sorted (Go maps); giving
 *                                       indent/prefix means MarshalIndent layout (even if ""),
 *                                       escapeHTML:false + trailingNewline = Encoder.Encode
 *   marshalTyped(value, type, opts?) -> {text, error}; struct/omitempty/embedding/map-sorting
 *                                       semantics of the Go type
 *   sortKeysDeep(value)              -> copy with object keys in Go map order
 *   goJSONString(s, escapeHTML?)     -> one encoded string literal
 *   goIndent(text, prefix, indent) / goCompact(text, escapeHTML?) -> {text, error}
 *
 * strconv / fmt
 *   goQuote(s) (strconv.Quote, %q), goQuoteBytes(bytes), goQuoteList(xs) (%q of []string),
 *   goList(xs) (%v of []string), goIsPrint(r), goFormatFloat(f, 'e'|'f'|'g', prec?),
 *   goFormatFloatV(f) (%v of float64)
 *
 * net (gonet.ts) and CNI types (cnitypes.ts)
 *   parseIP, parseCIDR, ipString, ipNetString, ipMaskString, netIPType; cniIPNetType,
 *   cniRouteType, pluginsIPType, cniNetConfType, bridgeNetConfType, allocatorNetType, ...
 *
 * Known gaps: []byte fields are not base64-decoded (they encode as base64); Go arrays,
 * json.Number, UseNumber, DisallowUnknownFields and non-string/non-integer map keys are not
 * modelled; non-ASCII field names use an approximation of Unicode simple folding; float32 values
 * may double-round in rare halfway cases; decoding very deeply nested recursive struct types can
 * exhaust the JS stack (reported as an error; interface{} values are decoded iteratively).
 */
export { jsonSyntaxError } from './scanner';
export {
  decode,
  decodeErrorOf,
  goErrorMessage,
  goUnquote,
  parseGo,
  unmarshalTypeErrorMessage,
  type DecodeResult,
} from './decode';
export {
  base64Std,
  compareGoStrings,
  goCompact,
  goIndent,
  goJSONString,
  goMarshalJSON,
  marshal,
  marshalTyped,
  sortKeysDeep,
  type MarshalOptions,
  type MarshalResult,
} from './encode';
export {
  goFormatFloat,
  goFormatFloatV,
  goIsPrint,
  goList,
  goQuote,
  goQuoteBytes,
  goQuoteList,
  utf8Bytes,
  utf8Decode,
} from './strconv';
export {
  basic,
  embed,
  field,
  goAny,
  goBool,
  goFloat64,
  goInt,
  goInt64,
  goString,
  goUint,
  map,
  propOf,
  isBoxedPtr,
  ptr,
  shortName,
  slice,
  struct,
  typeString,
  zeroValue,
  type CustomResult,
  type GoBasicKind,
  type GoBasicType,
  type GoCustomType,
  type GoError,
  type GoField,
  type GoInterfaceType,
  type GoMapType,
  type GoPtrType,
  type GoSliceType,
  type GoStructType,
  type GoType,
  type UnmarshalTypeError,
} from './types';
export {
  cidrMask,
  ipMaskString,
  ipNetString,
  ipString,
  ipTo4,
  ipv4,
  netIPType,
  parseCIDR,
  parseIP,
  type GoIP,
  type GoIPNet,
  type ParseCIDRResult,
} from './gonet';
export * from './cnitypes';
