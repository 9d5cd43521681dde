import { describe, expect, it } from 'vitest';
import { nestedDeeper } from './validate-config.js';
import {
  CHARS_PER_STEP,
  findJsonInfidelity,
  inspectJsonText,
  inspectJsonTextInSlices,
} from './json-fidelity.js';

/** Twelve distinct keys `k0` … `k11`. */
const MANY_KEYS = Array.from({ length: 12 }, (_, i) => `"k${i}":${i}`).join(
  ',',
);

describe('findJsonInfidelity (issue 17, item 6)', () => {
  it.each([
    ['{"a":1e400}', 'a', 'too large'],
    ['{"a":[1,-1E999]}', 'a[1]', 'too large'],
    ['{"a":{"b":12345678901234567890123}}', 'a.b', 'lose precision'],
    ['[9007199254740993]', '[0]', 'lose precision'],
    ['-9007199254740993', '(the top level)', 'read back as -9007199254740992'],
    ['{"a":1,"b":{"c":2,"c":3}}', 'b.c', 'twice'],
    ['{"a":1,"\\u0061":2}', 'a', 'twice'],
    ['{"x y":[{"k":1,"k":1}]}', '["x y"][0].k', 'twice'],
    // Past the keys compared one by one: the object's keys are then kept in a set.
    [`{${MANY_KEYS},"k3":1}`, 'k3', 'twice'],
    [`[{${MANY_KEYS}},{"k0":1,"k11":2,"k11":3}]`, '[1].k11', 'twice'],
  ])('refuses %s at %s', (text, path, reason) => {
    const found = findJsonInfidelity(text);
    expect(found?.path).toBe(path);
    expect(found?.reason).toContain(reason);
  });

  it.each([
    '{"a":1.0,"b":-0,"c":1E2,"d":9007199254740991,"e":-9007199254740991}',
    '{"a":1.7976931348623157e308,"b":5e-324,"c":0.1000000000000000055511}',
    '{"a":{"k":1},"b":{"k":1},"c":[{"k":1},{"k":1}]}',
    '{"s":"\\"k\\":1,\\"k\\":2, 1e400 \\\\","t":"\\\\"}',
    '{"a":"","":1}',
    '[[],{},[{}],"x",true,false,null]',
    '12345678901234567890.5',
    // An object's keys are its own: a sibling or a nested object may repeat them.
    `[{${MANY_KEYS}},{${MANY_KEYS}},{"k0":{${MANY_KEYS}}}]`,
    '[9007199254740992,-1152921504606846976,100000000000000000000]',
  ])('accepts %s', (text) => {
    expect(findJsonInfidelity(text)).toBeUndefined();
  });

  it('reads one object of 200,000 keys (a scan comparing keys pairwise would not finish)', () => {
    // No clock here: a quadratic scan makes 2·10^10 comparisons and runs past the timeout (30 s, so a
    // loaded machine running this in 1–6 s never fails it).
    const links = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, i) => [
        `link-${i}`,
        { url: `https://example.com/${i}`, title: `Link "${i}"`, n: i * 1.5 },
      ]),
    );
    const text = JSON.stringify({ allLinks: links });
    expect(findJsonInfidelity(text)).toBeUndefined();
    expect(findJsonInfidelity(`${text.slice(0, -2)},"link-7":1}}`)).toEqual({
      path: 'allLinks["link-7"]',
      reason: 'the key appears twice',
    });
  }, 30_000);
});

describe('inspectJsonText', () => {
  it.each([
    ['1', 0],
    ['"{[not nesting]}"', 0],
    ['[]', 1],
    ['{"a":[1,{"b":[]}],"c":{}}', 4],
    ['[[[[{}]]],[1]]', 5],
  ])('measures the nesting of %s as the parsed value has it', (text, depth) => {
    expect(inspectJsonText(text).depth).toBe(depth);
    expect(nestedDeeper(JSON.parse(text), depth)).toBe(false);
    if (depth > 0) expect(nestedDeeper(JSON.parse(text), depth - 1)).toBe(true);
  });
});

describe('inspectJsonTextInSlices (issue 17, item 7)', () => {
  const links = (n: number, last: string) =>
    `{"allLinks":{${Array.from({ length: n }, (_, i) => `"l${i}":{"url":"https://x/${i}"}`).join(',')}${last}}}`;
  const everyStep = () => {
    let pauses = 0;
    return {
      sliceMs: 0,
      pause: () => Promise.resolve(void (pauses += 1)),
      pauses: () => pauses,
    };
  };

  it('pauses every CHARS_PER_STEP characters, with the same answer', async () => {
    const text = links(20_000, '');
    const slices = everyStep();
    expect(await inspectJsonTextInSlices(text, slices)).toEqual({
      infidelity: undefined,
      depth: 3,
    });
    expect(slices.pauses()).toBe(Math.ceil(text.length / CHARS_PER_STEP) - 1);
  });

  it('finds what the scan at once finds, past the first slices', async () => {
    const text = links(20_000, ',"l5":{"url":"again"}');
    const { infidelity: found } = await inspectJsonTextInSlices(
      text,
      everyStep(),
    );
    expect(found).toEqual(findJsonInfidelity(text));
    expect(found).toEqual({
      path: 'allLinks.l5',
      reason: 'the key appears twice',
    });
  });
});
