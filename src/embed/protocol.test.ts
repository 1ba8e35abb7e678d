import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEWS,
  EMBED_VIEWS,
  embedSrc,
  parseEmbedMessage,
  parseHostMessage,
  parseParams,
  parseScenario,
  paramsQuery,
  prerenderFits,
  type EmbedParams,
} from './protocol';
import { fcParams } from '../engine/properties/config';
import { solvedReporter } from './solved';

describe('embed parameters', () => {
  it('read every parameter, with defaults', () => {
    expect(parseParams('')).toEqual({
      params: {
        scenario: 'sandbox',
        step: null,
        views: DEFAULT_VIEWS,
        theme: 'auto',
        level: null,
        autoplay: false,
        origin: null,
      },
      problems: [],
    });
    const { params, problems } = parseParams(
      '?scenario=AbC_-1&step=12&views=topology,pods&theme=dark&level=cni&autoplay=1&origin=https://docs.example.org/x',
    );
    expect(problems).toEqual([]);
    expect(params).toEqual({
      scenario: 'AbC_-1',
      step: 12,
      views: ['topology', 'pods'],
      theme: 'dark',
      level: 'cni',
      autoplay: true,
      origin: 'https://docs.example.org',
    });
  });

  it('bad values fall back to defaults and are reported', () => {
    const { params, problems } = parseParams(
      '?scenario=<script>&step=x&views=evil,steps&theme=pink&level=9&origin=javascript:alert(1)',
    );
    expect(params).toMatchObject({
      scenario: 'sandbox',
      step: null,
      views: ['steps'],
      theme: 'auto',
      level: null,
      origin: null,
    });
    expect(problems).toHaveLength(6);
  });

  it('paramsQuery and parseParams round-trip (property, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.record({
          scenario: fc.oneof(
            fc.constant('sandbox'),
            fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/),
            fc.stringMatching(/^(lesson|scenario):[a-z0-9][a-z0-9-]{0,63}$/),
          ),
          step: fc.option(fc.nat(9_999_999)),
          views: fc.uniqueArray(fc.constantFrom(...EMBED_VIEWS), { minLength: 1, maxLength: 4 }),
          theme: fc.constantFrom('light', 'dark', 'auto'),
          level: fc.option(fc.constantFrom('cluster', 'runtime', 'cni', 'kernel')),
          autoplay: fc.boolean(),
          origin: fc.option(fc.constantFrom('https://a.example', 'http://localhost:3000')),
        }),
        (p) => {
          expect(parseParams(paramsQuery(p as EmbedParams))).toEqual({ params: p, problems: [] });
        },
      ),
      { seed: 8, numRuns: 200 },
    );
  });
});

describe('scenario values', () => {
  it('sandbox, lesson:<id>, scenario:<name> or a share payload', () => {
    expect(parseScenario('sandbox')).toEqual({ kind: 'sandbox' });
    expect(parseScenario('lesson:add-step-by-step')).toEqual({
      kind: 'lesson',
      id: 'add-step-by-step',
    });
    expect(parseScenario('scenario:silent-ip-leak')).toEqual({
      kind: 'file',
      name: 'silent-ip-leak',
    });
    expect(parseScenario('AbC_-1')).toEqual({ kind: 'link', payload: 'AbC_-1' });
  });

  it('challenge:<id>, with seed 1 unless a seed follows', () => {
    expect(parseScenario('challenge:ip-leak')).toEqual({
      kind: 'challenge',
      id: 'ip-leak',
      seed: 1,
    });
    expect(parseScenario('challenge:ip-leak:4711')).toEqual({
      kind: 'challenge',
      id: 'ip-leak',
      seed: 4711,
    });
    for (const v of [
      'challenge:',
      'challenge:ip-leak:0',
      'challenge:ip-leak:1234567',
      'challenge:a:b',
      'challenge:Ip',
    ])
      expect(parseScenario(v)).toBeNull();
    expect(parseParams('?scenario=challenge:ip-leak:3').params.scenario).toBe(
      'challenge:ip-leak:3',
    );
  });

  it('refuses anything else, with the accepted forms named', () => {
    for (const v of [
      '',
      'lesson:',
      'lesson:Add',
      'lesson:../x',
      'lesson:a:b',
      'scenario:x.json',
      'challenge:ip-leak:x',
      'LESSON:x',
      'javascript:alert(1)',
      `lesson:${'a'.repeat(65)}`,
      '<img src=x>',
      7,
      null,
    ]) {
      expect(parseScenario(v)).toBeNull();
    }
    const { params, problems } = parseParams('?scenario=quiz:ip-leak');
    expect(params.scenario).toBe('sandbox');
    expect(problems).toEqual([
      "scenario: expected sandbox, lesson:<id>, challenge:<id>, scenario:<name> or a share link's payload",
    ]);
    expect(parseParams('?scenario=lesson:chaining').params.scenario).toBe('lesson:chaining');
  });
});

describe('lesson solved', () => {
  it('is reported once per lesson, the first time every goal is met', () => {
    const sent: string[] = [];
    const report = solvedReporter((l) => sent.push(l));
    const met = { met: true };
    const unmet = { met: false };
    expect(report('chaining', [])).toBe(false);
    expect(report('chaining', [met, unmet])).toBe(false);
    expect(report('chaining', [met, met])).toBe(true);
    expect(report('chaining', [met, met])).toBe(false);
    expect(report('chaining', [met, unmet])).toBe(false);
    expect(report('chaining', [met, met])).toBe(false);
    expect(report('restarts', [met])).toBe(true);
    expect(sent).toEqual(['chaining', 'restarts']);
  });

  it('is a valid embed → host message, naming the lesson by id', () => {
    expect(parseEmbedMessage({ cnisim: 1, type: 'solved', lesson: 'chaining' })).toEqual({
      cnisim: 1,
      type: 'solved',
      lesson: 'chaining',
    });
    for (const lesson of [undefined, 3, '', '<b>x</b>', 'lesson:chaining'])
      expect(parseEmbedMessage({ cnisim: 1, type: 'solved', lesson })).toBeNull();
  });
});

describe('postMessage API v1', () => {
  it('accepts the documented host messages', () => {
    for (const m of [
      { cnisim: 1, type: 'goto', step: 4 },
      { cnisim: 1, type: 'load', scenario: 'sandbox', step: 2 },
      { cnisim: 1, type: 'load', scenario: 'lesson:chaining' },
      { cnisim: 1, type: 'load', scenario: 'scenario:hang-timeout', step: 0 },
      { cnisim: 1, type: 'inject', fault: 'cache-corrupt', params: { pod: 'default/web-0' } },
      { cnisim: 1, type: 'views', views: ['sequence'] },
      { cnisim: 1, type: 'theme', theme: 'dark' },
      { cnisim: 1, type: 'level', level: 'cni' },
      { cnisim: 1, type: 'play' },
      { cnisim: 1, type: 'pause' },
    ]) {
      expect(parseHostMessage(m)).toEqual(m);
    }
  });

  it('ignores anything else', () => {
    for (const m of [
      null,
      'goto',
      { type: 'goto', step: 1 },
      { cnisim: 2, type: 'goto', step: 1 },
      { cnisim: 1, type: 'goto', step: -1 },
      { cnisim: 1, type: 'goto', step: 1.5 },
      { cnisim: 1, type: 'load', scenario: '<img src=x>' },
      { cnisim: 1, type: 'load', scenario: 'lesson:../../x' },
      { cnisim: 1, type: 'inject', fault: '../x' },
      { cnisim: 1, type: 'views', views: ['sequence', 'x'] },
      { cnisim: 1, type: 'views', views: [] },
      { cnisim: 1, type: 'eval', code: '1' },
    ]) {
      expect(parseHostMessage(m)).toBeNull();
    }
    expect(parseEmbedMessage({ cnisim: 1, type: 'step', step: 3, length: 9 })).not.toBeNull();
    expect(parseEmbedMessage({ cnisim: 1, type: 'step', step: '3' })).toBeNull();
  });
});

describe('<cni-sim> src', () => {
  const BASE = 'https://docs.example/cnisim/cni-sim.js';
  const DEFAULT = 'https://docs.example/cnisim/embed.html';

  it('takes an http(s) address, relative to the script or absolute', () => {
    expect(embedSrc(null, BASE)).toEqual({ url: new URL(DEFAULT), problem: null });
    expect(embedSrc('v2/embed.html', BASE).url.href).toBe(
      'https://docs.example/cnisim/v2/embed.html',
    );
    expect(embedSrc('http://sim.example/embed.html', BASE).url.href).toBe(
      'http://sim.example/embed.html',
    );
    expect(embedSrc('//sim.example/e.html', BASE).problem).toBeNull();
  });

  it('refuses javascript:, data:, blob: and non-URLs: the default, and the reason', () => {
    for (const bad of [
      'javascript:alert(1)',
      ' JaVaScRiPt:parent.__pwned=1//',
      'java\tscript:alert(1)',
      'data:text/html,<script>parent.__pwned=1</script>',
      'blob:https://docs.example/0b0e',
      'about:srcdoc',
      'file:///etc/passwd',
      'http://[::1',
      'vbscript:msgbox(1)',
    ]) {
      const r = embedSrc(bad, BASE);
      expect(r.url.href, bad).toBe(DEFAULT);
      expect(r.problem, bad).toMatch(
        /^src ".*" is not an http\(s\) address: the simulator is loaded from https:\/\/docs\.example\/cnisim\/embed\.html instead\.$/,
      );
      // The value is shown tamed: short, on one line.
      expect(r.problem!.length).toBeLessThan(200);
      // eslint-disable-next-line no-control-regex -- none may remain
      expect(r.problem).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  it('never yields anything but an http(s) address, whatever the value (property, fixed seed)', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.webUrl(),
      fc
        .constantFrom('javascript:', 'data:', 'blob:', 'http:', 'https:', '//', ' ', '\t')
        .chain((p) => fc.string({ maxLength: 60 }).map((s) => p + s)),
    );
    fc.assert(
      fc.property(value, (v) => {
        const r = embedSrc(v, BASE);
        expect(['http:', 'https:']).toContain(r.url.protocol);
        if (r.problem !== null) expect(r.url.href).toBe(DEFAULT);
      }),
      fcParams(500),
    );
  });
});

describe('prerenderFits', () => {
  const fits = (search: string) => {
    const { params, problems } = parseParams(search);
    return prerenderFits(params, problems);
  };
  it('holds for the default sandbox, whatever its theme, origin or autoplay', () => {
    expect(fits('')).toBe(true);
    expect(fits('?theme=dark&autoplay=1&origin=https%3A%2F%2Fdocs.example')).toBe(true);
    expect(fits('?scenario=sandbox&views=sequence,inspector')).toBe(true);
  });
  it('fails for another scenario, step, level or views, and for a bad value', () => {
    for (const q of [
      '?step=0',
      '?level=cni',
      '?views=inspector,sequence',
      '?scenario=lesson:add-step-by-step',
      '?step=x',
      '?theme=blue',
      '?origin=javascript:x',
    ])
      expect(fits(q), q).toBe(false);
  });
});
