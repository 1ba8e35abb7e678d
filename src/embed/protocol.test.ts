import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEWS,
  EMBED_VIEWS,
  parseEmbedMessage,
  parseHostMessage,
  parseParams,
  paramsQuery,
  type EmbedParams,
} from './protocol';

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
          scenario: fc.oneof(fc.constant('sandbox'), fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/)),
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

describe('postMessage API v1', () => {
  it('accepts the documented host messages', () => {
    for (const m of [
      { cnisim: 1, type: 'goto', step: 4 },
      { cnisim: 1, type: 'load', scenario: 'sandbox', step: 2 },
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
