import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastHistogram } from './fast-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];

describe('FastHistogram', () => {
  it("renders exactly what prom-client's histogram renders for the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const fast = new FastHistogram({
      name: 'h',
      help: 'help text',
      buckets: BUCKETS,
      registry: ours,
    });
    const reference = new Histogram({
      name: 'h',
      help: 'help text',
      labelNames: ['route', 'status'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const observations: [string, string, number][] = [
      ['/a', '200', 0.0005],
      ['/a', '200', 0.001], // on a bound: counted in that bucket (le means "less or equal")
      ['/a', '200', 0.5],
      ['/a', '500', 7],
      ['/b', '200', 0.02],
    ];
    for (const [route, status, value] of observations) {
      fast
        .series(`${route} ${status}`, () => ({ route, status }))
        .observe(value);
      reference.observe({ route, status }, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('builds the labels of a series once', () => {
    const fast = new FastHistogram({
      name: 'h',
      help: 'h',
      buckets: BUCKETS,
      registry: new Registry(),
    });
    let built = 0;
    const labels = () => {
      built++;
      return { route: '/a' };
    };
    for (let i = 0; i < 3; i++) fast.series('/a', labels).observe(0.1);
    expect(built).toBe(1);
    expect([...fast.all()].map((s) => s.count)).toEqual([3]);
  });

  it('is emptied by the registry reset', async () => {
    const registry = new Registry();
    const fast = new FastHistogram({
      name: 'h',
      help: 'h',
      buckets: BUCKETS,
      registry,
    });
    fast.series('x', () => ({ route: 'x' })).observe(1);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('route="x"');
  });
});
