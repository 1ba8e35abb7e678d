import { describe, expect, it } from 'vitest';
import { TICK, type Gen } from './gen';
import { Simulation, newWorld } from '../sim/world';
import { Ctx, Scheduler } from './scheduler';

function setup() {
  const sim = new Simulation(newWorld(1));
  const sched = new Scheduler(sim);
  const log: string[] = [];
  const note = (s: string) => {
    log.push(`${sim.state.clock}:${s}`);
    sim.note({
      node: null,
      source: 't',
      target: 't',
      kind: 'note',
      level: 'cluster',
      summary: s,
      payload: {},
    });
  };
  return { sim, sched, log, note };
}

describe('Scheduler', () => {
  it('runs a task without interruption until it sleeps, then the earliest due work', () => {
    const { sched, log, note } = setup();
    function* a(): Gen<void> {
      note('a1');
      yield TICK;
      note('a2');
      yield { tick: true, sleepUs: 100 };
      note('a3');
    }
    function* b(): Gen<void> {
      note('b1');
      yield TICK;
      note('b2');
    }
    sched.spawn(a(), { name: 'a', node: null });
    sched.spawn(b(), { name: 'b', node: null });
    sched.run();
    expect(log).toEqual(['0:a1', '0:a2', '0:b1', '0:b2', '100:a3']);
  });

  it('step() returns after each recorded event and false when idle', () => {
    const { sim, sched, note } = setup();
    sched.spawn(
      (function* (): Gen<void> {
        note('x');
        yield TICK;
        note('y');
      })(),
      { name: 'x', node: null },
    );
    expect(sched.step()).toBe(true);
    expect(sim.events.length).toBe(1);
    expect(sched.step()).toBe(true);
    expect(sim.events.length).toBe(2);
    expect(sched.step()).toBe(false);
  });

  it('fires timers in time order and moves the clock to them', () => {
    const { sched, log, note } = setup();
    sched.after(500, 'late', () => note('late'));
    sched.after(200, 'early', () => note('early'));
    sched.after(300, 'cancelled', () => note('never'));
    sched.cancel('cancelled');
    sched.run();
    expect(log).toEqual(['200:early', '500:late']);
  });

  it('a waiting task resumes when what it waits for ends; kill runs finally blocks', () => {
    const { sched, log, note } = setup();
    const child = sched.spawn(
      (function* (): Gen<number> {
        try {
          note('child sleeps forever');
          yield { tick: true, sleepUs: Infinity };
          note('never');
          return 1;
        } finally {
          note('child finally');
        }
      })(),
      { name: 'child', node: null },
    );
    sched.spawn(
      (function* (): Gen<void> {
        while (!child.done) yield { tick: true, wait: child };
        note(`parent sees killed=${child.killed}`);
      })(),
      { name: 'parent', node: null },
    );
    sched.after(1000, 'kill', () => sched.kill(child));
    sched.run();
    expect(log).toEqual([
      '0:child sleeps forever',
      '1000:child finally',
      '1000:parent sees killed=true',
    ]);
  });

  it('a context runs its cancel hooks once, with Go error text', () => {
    const ctx = new Ctx();
    let n = 0;
    ctx.onCancel(() => n++);
    ctx.cancel('context deadline exceeded');
    ctx.cancel();
    expect(n).toBe(1);
    expect(ctx.err).toBe('context deadline exceeded');
  });
});
