import { describe, expect, it } from 'vitest';
import { FrequencySketch } from './frequency-sketch.js';

describe('FrequencySketch', () => {
  it('never estimates below the uses counted, and tells a frequent key from rare ones', () => {
    const sketch = new FrequencySketch(1024);
    for (let i = 0; i < 3000; i++) sketch.increment(`scan-${i % 1500}`);
    for (let i = 0; i < 20; i++) sketch.increment('hot');
    for (let i = 0; i < 1500; i++) {
      expect(sketch.estimate(`scan-${i}`)).toBeGreaterThanOrEqual(2);
    }
    expect(sketch.estimate('hot')).toBeGreaterThanOrEqual(20);
    const above = Array.from({ length: 1500 }, (_, i) =>
      sketch.estimate(`scan-${i}`),
    ).filter((e) => e >= 20).length;
    expect(above).toBeLessThan(15);
    expect(sketch.estimate('never')).toBeLessThan(20);
  });

  it('halves every count as uses accumulate, so old uses fade', () => {
    const sketch = new FrequencySketch(16);
    for (let i = 0; i < 100; i++) sketch.increment('old');
    expect(sketch.estimate('old')).toBeGreaterThanOrEqual(100);
    // One aging period is 8 × the width (16) = 128 increments; 100 were spent on `old`.
    for (let i = 0; i < 28; i++) sketch.increment('new');
    expect(sketch.estimate('old')).toBe(50);
    expect(sketch.bytes).toBe(32);
  });
});
