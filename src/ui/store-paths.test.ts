/**
 * The app's state has one write path (src/ui/app/state.ts): components read with `useApp` and
 * call commands; only command modules write. Checked on the sources, so that a component that
 * starts writing the store (or a second store) fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

const appFiles = ['ui', 'embed', 'element']
  .flatMap((d) => walk(join(SRC, d)))
  .filter((f) => !/\.test\.tsx?$/.test(f));
const text = (f: string) => readFileSync(f, 'utf8');

describe("the app's state", () => {
  it('is one store: nothing else creates one', () => {
    const stores = appFiles.filter((f) =>
      /from 'zustand|createStore\(|create<\w+>\(/.test(text(f)),
    );
    expect(stores.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('components never write it: no setState, no update(), no slice writes in a .tsx', () => {
    const writers = appFiles
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('/main.tsx')) // entry points boot
      .filter((f) => {
        const t = text(f).replace(/this\.setState\(/g, ''); // a class component's own state
        return (
          /\.setState\(/.test(t) ||
          /import \{[^}]*\bupdate\b[^}]*\} from '[./]*app\/state'/.test(t) ||
          /import \{[^}]*\b(setCourse|setEmbed)\b[^}]*\} from '\.\/state'/.test(t)
        );
      });
    expect(writers.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('is written through update() only in the command modules', () => {
    const allowed = new Set([
      'ui/app/state.ts',
      'ui/app/notices.ts',
      'ui/app/jobs.ts',
      'ui/app/commands.ts',
      'ui/app/preview.ts',
      'ui/app/persistence.ts',
      'ui/app/boot.ts',
      'ui/landing.ts',
      'ui/share/open.ts',
      'ui/course/open.ts',
      'embed/main.tsx',
      'embed/start.ts',
      'embed/lesson.ts',
    ]);
    const writers = appFiles
      .filter((f) => /import \{[^}]*\bupdate\b[^}]*\} from '[./]*app\/state'/.test(text(f)))
      .map((f) => relative(SRC, f))
      .filter((f) => !allowed.has(f));
    expect(writers).toEqual([]);
  });
});
