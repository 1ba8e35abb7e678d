/**
 * The conflist editor's token colours: CodeMirror's default highlight style (its tags and font
 * styles), with each colour replaced by a theme variable of app.css (`--tok-*`), so that tokens
 * keep WCAG AA contrast in the dark theme too (the default's colours are for white: the string
 * red and the `true` blue read at 2.5:1 and 1.4:1 on the dark background).
 */
import { defaultHighlightStyle, HighlightStyle } from '@codemirror/language';

/** The default style's colours, by what they mark, and the variable each becomes. */
export const TOKEN_VARS: Readonly<Record<string, string>> = {
  '#a11': '--tok-string',
  '#219': '--tok-atom',
  '#164': '--tok-literal',
  '#f00': '--tok-invalid',
  '#e40': '--tok-string',
  '#940': '--tok-muted',
  '#404740': '--tok-muted',
  '#708': '--tok-atom',
  '#00f': '--tok-atom',
  '#00c': '--tok-atom',
  '#30a': '--tok-atom',
  '#085': '--tok-literal',
  '#167': '--tok-literal',
  '#256': '--tok-literal',
};

export const themedHighlightStyle = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) => {
    const c = typeof spec['color'] === 'string' ? spec['color'] : undefined;
    if (c === undefined) return spec;
    const v = TOKEN_VARS[c.toLowerCase()];
    return { ...spec, color: v ? `var(${v})` : 'var(--fg)' };
  }),
);
