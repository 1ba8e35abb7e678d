/**
 * Share links: the sandbox as a saved session (cluster, seed, the actions with every injected
 * fault, the current step and detail level, with its checksum: engine/session/serialize.ts) and
 * the views on screen, packed into the URL hash as `#/s/<payload>` (route.ts).
 *
 * The payload is base64url of bytes: [codec version] [body]. Codec 1's body is raw DEFLATE of the
 * UTF-8 JSON
 *
 *   { "session": <saved session>, "views": { "left": "sequence", "right": "pods" } }
 *
 * Links live in chat logs and slides for years: every codec version ever published stays in
 * DECODERS, and link.test.ts keeps one golden link per version. A change of format is a new
 * version with its own decoder, never an edit of an old one.
 *
 * A link is hostile input. `decodeLink` never throws and never evaluates anything: the text's
 * length is checked before decoding, the inflated size is capped while inflating (a small link
 * must not expand to gigabytes), the JSON is validated field by field (zod), and the session's
 * checksum must match. What it returns is plain data for the store to replay.
 */
import { deflateSync, Inflate } from 'fflate';
import * as z from 'zod/mini';
import { loadEngine, type SavedSession } from '../../engine';

z.config({ jitless: true });

export const LINK_VERSION = 1;

/** Longest payload accepted or produced: browsers and chat apps keep URLs of this size intact. */
export const MAX_LINK_CHARS = 32_768;
/** Largest inflated body accepted. */
export const MAX_BODY_BYTES = 1 << 20;

export interface LinkViews {
  left?: string;
  right?: string;
}

export interface SharedState {
  saved: SavedSession;
  views: LinkViews;
}

export type LinkParse = { ok: true; state: SharedState } | { ok: false; error: string };

// ---------------------------------------------------------------------------------------------
// base64url

const B64URL_RE = /^[A-Za-z0-9_-]*$/;

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array | null {
  if (!B64URL_RE.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  let bin: string;
  try {
    bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bounded inflate

class TooLarge extends Error {}

/** Inflates raw DEFLATE, giving up as soon as the output passes `max` bytes. */
export function inflateBounded(data: Uint8Array, max: number): Uint8Array | 'too-large' | 'bad' {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const inflate = new Inflate((chunk, final) => {
    size += chunk.length;
    if (size > max) throw new TooLarge();
    chunks.push(chunk);
    if (final) ended = true;
  });
  try {
    // Small input pieces bound what one push can produce (DEFLATE expands at most ~1032:1).
    for (let i = 0; i < data.length; i += 512) {
      inflate.push(data.subarray(i, i + 512), i + 512 >= data.length);
    }
    if (data.length === 0) inflate.push(data, true);
  } catch (e) {
    return e instanceof TooLarge ? 'too-large' : 'bad';
  }
  if (!ended) return 'bad';
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Codec versions

const VIEW_RE = /^[a-z][a-z-]{0,31}$/;

const envelopeV1 = z.strictObject({
  session: z.unknown(),
  views: z.optional(
    z.strictObject({
      left: z.optional(z.string().check(z.regex(VIEW_RE))),
      right: z.optional(z.string().check(z.regex(VIEW_RE))),
    }),
  ),
});

type Decoder = (body: Uint8Array) => LinkParse;

function decodeV1(body: Uint8Array): LinkParse {
  const inflated = inflateBounded(body, MAX_BODY_BYTES);
  if (inflated === 'too-large') {
    return { ok: false, error: `it expands to more than ${MAX_BODY_BYTES >> 10} KiB` };
  }
  if (inflated === 'bad') return { ok: false, error: 'it is damaged or cut short' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return { ok: false, error: 'it is damaged (not UTF-8 text)' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'it is damaged (not JSON)' };
  }
  const env = envelopeV1.safeParse(json);
  if (!env.success) return { ok: false, error: 'it does not hold a cnisim sandbox' };
  const saved = loadEngine.now().parseSavedSession(env.data.session);
  if (!saved.ok) return { ok: false, error: saved.errors[0] ?? 'its sandbox is invalid' };
  return { ok: true, state: { saved: saved.saved, views: env.data.views ?? {} } };
}

/** Every codec version ever published, by its first byte. Add; never change or remove. */
const DECODERS: Readonly<Record<number, Decoder>> = {
  1: decodeV1,
};

// ---------------------------------------------------------------------------------------------
// Public API

/** The hash payload of a sandbox (the current codec), or null when it would be too long. */
export function encodeLink(state: SharedState): string | null {
  const json = JSON.stringify({ session: state.saved, views: state.views });
  const body = deflateSync(new TextEncoder().encode(json), { level: 9 });
  const bytes = new Uint8Array(body.length + 1);
  bytes[0] = LINK_VERSION;
  bytes.set(body, 1);
  const text = toBase64Url(bytes);
  return text.length > MAX_LINK_CHARS ? null : text;
}

/** Reads a hash payload. Never throws; an error says why the link cannot be opened. */
export function decodeLink(payload: string): LinkParse {
  const fail = (why: string): LinkParse => ({
    ok: false,
    error: `This link cannot be opened: ${why}.`,
  });
  if (payload.length > MAX_LINK_CHARS) return fail('it is too long');
  if (payload.length === 0) return fail('it is empty');
  const bytes = fromBase64Url(payload);
  if (!bytes || bytes.length < 2) return fail('it is damaged or cut short');
  const version = bytes[0]!;
  const decoder = DECODERS[version];
  if (!decoder) {
    return fail(
      version > LINK_VERSION
        ? `it was made by a newer version of cnisim (link format ${version})`
        : `unknown link format ${version}`,
    );
  }
  const r = decoder(bytes.subarray(1));
  return r.ok ? r : fail(r.error);
}
