/**
 * Opening a share link (src/ui/share/open.ts): the user's sandbox stays on screen until the link
 * is decoded and is saved before the link's takes its place; the link's sandbox is the only one
 * made (a placeholder made first was thrown away, ~100 ms of a cold page); a link that cannot be
 * decoded opens the default sandbox, never saved over the user's own.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadEngine, type EngineModule } from '../engine';
import { STORAGE_KEY } from './app/persistence';
import { get, update } from './app/state';
import { linkNotOpened, openLink } from './share/open';
import { encodeLink } from './share/link';

let engine: EngineModule;
const saved = new Map<string, string>();

beforeAll(async () => {
  engine = await loadEngine();
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    value: {
      getItem: (k: string) => saved.get(k) ?? null,
      setItem: (k: string, v: string) => void saved.set(k, v),
      removeItem: (k: string) => void saved.delete(k),
    },
  });
});

afterEach(() => {
  saved.clear();
  update({ session: null, engine: null, source: 'own', phase: 'loading' });
});

/** The user's own sandbox, open and stepped, with one pod more than the default. */
function ownSandbox() {
  const own = engine.newSandbox();
  own.perform({ do: 'createPod', name: 'mine' });
  own.seek(own.events.length - 1);
  update({ engine, session: own, source: 'own', phase: 'ready' });
  return own;
}

/** `engine` with its newSandbox counted. */
function counting(): { made: () => number } {
  let n = 0;
  const newSandbox = engine.newSandbox;
  update({
    engine: {
      ...engine,
      newSandbox: (...a: Parameters<EngineModule['newSandbox']>) => {
        n++;
        return newSandbox(...a);
      },
    },
  });
  return { made: () => n };
}

describe('opening a share link', () => {
  it("keeps my sandbox until the link is decoded, saves it, and makes only the link's", async () => {
    const shared = engine.newSandbox();
    shared.perform({ do: 'scale', deployment: 'web', replicas: 3 });
    shared.seek(shared.events.length - 1);
    const payload = encodeLink({ saved: engine.saveSession(shared), views: {} })!;
    const own = ownSandbox();
    const sandboxes = counting();

    const opening = openLink(payload);
    expect(get().session).toBe(own);
    expect(get().source).toBe('own');
    await opening;

    expect(sandboxes.made()).toBe(1);
    const opened = get().session!;
    expect(opened).not.toBe(own);
    expect(get().source).toBe('link');
    expect(opened.events.length).toBe(shared.events.length);
    expect(opened.cursor).toBe(shared.cursor);
    expect(saved.get(STORAGE_KEY)).toBe(engine.serializeSession(own));
  });

  it('opens the default sandbox for a link that cannot be decoded, and keeps mine saved', async () => {
    const own = ownSandbox();
    const sandboxes = counting();

    await openLink('not-a-link');

    expect(sandboxes.made()).toBe(1);
    const opened = get().session!;
    expect(opened).not.toBe(own);
    expect(linkNotOpened(opened)).toBe(true);
    expect(get().source).toBe('link');
    expect(saved.get(STORAGE_KEY)).toBe(engine.serializeSession(own));
    expect(get().notices.at(-1)?.text).toMatch(/default sandbox is open instead/);
  });
});
