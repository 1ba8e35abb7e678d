/**
 * The trace as a JSON file: what a learner keeps or sends, and what the app opens again.
 *
 *   { "format": "cnisim-trace", "version": 1,
 *     "session": <saved session: cluster, seed, actions, cursor, level, checksum>,
 *     "views": { "left": "...", "right": "..." },
 *     "events": [ <every event computed so far> ] }
 *
 * The events are there for people and other tools to read; importing does not trust them: it
 * replays the session (the trace is a pure function of it) and checks that the replay says
 * what the file's events say. Never throws.
 */
import * as z from 'zod/mini';
import { loadEngine, type SavedSession, type Session, type TraceEvent } from '../../engine';
import type { LinkViews } from './link';

z.config({ jitless: true });

export const TRACE_FORMAT = 'cnisim-trace';
export const TRACE_VERSION = 1;
/** Largest file accepted (a 110-pod run is ~30 MB). */
export const MAX_TRACE_CHARS = 64 << 20;

export interface TraceFile {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_VERSION;
  session: SavedSession;
  views: LinkViews;
  events: TraceEvent[];
}

export function traceFile(session: Session, views: LinkViews): TraceFile {
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    session: loadEngine.now().saveSession(session),
    views,
    events: [...session.events],
  };
}

const VIEW_RE = /^[a-z][a-z-]{0,31}$/;

const fileSchema = z.object({
  format: z.literal(TRACE_FORMAT),
  version: z.literal(TRACE_VERSION),
  session: z.unknown(),
  views: z.optional(
    z.object({
      left: z.optional(z.string().check(z.regex(VIEW_RE))),
      right: z.optional(z.string().check(z.regex(VIEW_RE))),
    }),
  ),
  events: z.array(
    z.object({
      seq: z.int(),
      kind: z.string(),
      node: z.nullable(z.string()),
      source: z.string(),
      target: z.string(),
      summary: z.string(),
      error: z.optional(z.string()),
    }),
  ),
});

export interface ParsedTraceFile {
  saved: SavedSession;
  views: LinkViews;
  /** What the file's events say up to the session's step, to compare with the replay. */
  digest: string;
}

export type TraceFileParse = { ok: true; file: ParsedTraceFile } | { ok: false; error: string };

export function parseTraceFile(text: string): TraceFileParse {
  const fail = (why: string): TraceFileParse => ({
    ok: false,
    error: `This file cannot be opened: ${why}.`,
  });
  if (text.length > MAX_TRACE_CHARS) return fail('it is larger than 64 MiB');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail('it is not JSON');
  }
  const r = fileSchema.safeParse(json);
  if (!r.success) return fail('it is not a cnisim trace (format "cnisim-trace", version 1)');
  const { parseSavedSession, traceDigest } = loadEngine.now();
  const saved = parseSavedSession(r.data.session);
  if (!saved.ok) return fail(saved.errors[0] ?? 'its session is invalid');
  const events = r.data.events as unknown as TraceEvent[];
  return {
    ok: true,
    file: {
      saved: saved.saved,
      views: r.data.views ?? {},
      digest: traceDigest(events, saved.saved.cursor),
    },
  };
}

/** After replaying `file.saved`: whether the session is at the file's step, with its events. */
export function sameTrace(session: Session, file: ParsedTraceFile): boolean {
  return (
    session.cursor === file.saved.cursor &&
    loadEngine.now().traceDigest(session.events, session.cursor) === file.digest
  );
}
