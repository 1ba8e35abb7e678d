/** Go fmt verbs the plugins' messages use (from gojson's strconv emulation). */
export { goQuote as q, goList, goQuoteList } from './gojson/strconv';
