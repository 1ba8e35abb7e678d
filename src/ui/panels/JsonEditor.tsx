/**
 * The conflist editor: CodeMirror 6 with JSON highlighting and inline parse errors. Loaded
 * lazily (ConfigView); CodeMirror adds its styles at run time, which the page's CSP allows for
 * styles only.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { themedHighlightStyle } from './editorHighlight';
import { jsonError } from './jsonProblem';

/** The first JSON error as a one-character mark (CodeMirror's own JSON linter marks nothing when V8 names no position). */
function jsonLint(view: EditorView): Diagnostic[] {
  const text = view.state.doc.toString();
  const e = jsonError(text);
  if (!e) return [];
  const len = text.length;
  const from = e.offset < len ? e.offset : Math.max(0, len - 1);
  const to = Math.min(len, from + 1);
  return [
    { from, to, severity: 'error', message: `line ${e.line}, column ${e.column}: ${e.reason}` },
  ];
}

/** Where the cursor was in the text area that had the keyboard before the editor replaced it. */
export interface Handover {
  anchor: number;
  head: number;
}

export default function JsonEditor(props: {
  value: string;
  onChange(text: string): void;
  label: string;
  /** The longest text the user may make (a paste beyond it is refused: `onRefused`). */
  maxLength: number;
  /** An edit refused: the text would have been `length` characters long. */
  onRefused(length: number): void;
  /** Where the text area this editor replaces had the cursor, if it had the keyboard (asked once). */
  takeHandover?(): Handover | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  const onRefused = useRef(props.onRefused);
  const maxLength = useRef(props.maxLength);
  const labelConf = useRef(new Compartment());
  // Set while the document is replaced from props: that is not the user's edit.
  const programmatic = useRef(false);
  // The text last given to onChange: when it comes back as the value, the document has it.
  const emitted = useRef<string | null>(null);
  useEffect(() => {
    onChange.current = props.onChange;
    onRefused.current = props.onRefused;
    maxLength.current = props.maxLength;
  });

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(themedHighlightStyle),
          linter(jsonLint, { delay: 200 }),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          labelConf.current.of(EditorView.contentAttributes.of({ 'aria-label': props.label })),
          // An edit that would make the text longer than a file may be (a careless paste of a
          // whole dump) is refused before CodeMirror lays it out, which would freeze the page.
          EditorView.domEventHandlers({
            paste(e, v) {
              const text = e.clipboardData?.getData('text/plain') ?? '';
              const replaced = v.state.selection.ranges.reduce((n, r) => n + r.to - r.from, 0);
              const length = v.state.doc.length - replaced + text.length;
              if (length <= maxLength.current || length <= v.state.doc.length) return false;
              e.preventDefault();
              onRefused.current(length);
              return true;
            },
          }),
          EditorState.transactionFilter.of((tr) => {
            if (programmatic.current || !tr.docChanged) return tr;
            const length = tr.newDoc.length;
            if (length <= maxLength.current || length <= tr.startState.doc.length) return tr;
            onRefused.current(length);
            return [];
          }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || programmatic.current) return;
            const text = u.state.doc.toString();
            emitted.current = text;
            onChange.current(text);
          }),
        ],
      }),
    });
    view.current = v;
    const h = props.takeHandover?.();
    if (h) {
      const len = v.state.doc.length;
      v.dispatch({ selection: { anchor: Math.min(h.anchor, len), head: Math.min(h.head, len) } });
      v.focus();
    }
    return () => {
      v.destroy();
      view.current = null;
    };
    // Created once; value and label updates are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v || props.value === emitted.current) return;
    emitted.current = null;
    const cur = v.state.doc.toString();
    if (cur !== props.value) {
      programmatic.current = true;
      v.dispatch({ changes: { from: 0, to: cur.length, insert: props.value } });
      programmatic.current = false;
    }
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: labelConf.current.reconfigure(
        EditorView.contentAttributes.of({ 'aria-label': props.label }),
      ),
    });
  }, [props.label]);

  return <div className="json-editor" ref={host} />;
}
