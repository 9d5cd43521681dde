import { deflateRawSync } from 'node:zlib';
import { commonHead, commonTail } from '@linkconfig/shared';
import { describe, expect, it } from 'vitest';
import {
  ChainReader,
  MAX_CHAIN,
  RevisionContentError,
  encodeRevision,
  keyframe,
} from './revision-content.js';
import type { RevisionContent } from './revision-content.js';

const big = (mark: string): string =>
  JSON.stringify({
    allLinks: Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [
        `link-${i}`,
        {
          url: `https://example.org/${i}/${i * 7919}`,
          label: i === 250 ? mark : `Link ${i}`,
        },
      ]),
    ),
  });

const read = (chain: readonly RevisionContent[], revs: readonly number[]) => {
  const reader = new ChainReader();
  chain.forEach((c, i) => reader.apply(c, revs[i] ?? 0));
  return reader.text();
};

describe('revision content', () => {
  it('stores a one-link edit as a delta of a few bytes, and reads it back', () => {
    const one = big('first');
    const two = big('second');
    const first = keyframe(1, one);
    const delta = encodeRevision(2, two, {
      rev: 1,
      json: one,
      base: 1,
      chain: 0,
    });
    expect(delta.base).toBe(1);
    expect(delta.data.length).toBeLessThan(10);
    expect(read([first, delta], [1, 2])).toBe(two);
  });

  it('keeps exactly the common start and end, at every distance from the slice sizes it compares in', () => {
    const text = 'abcdefghij'.repeat(4000);
    // Edits just before, at and after multiples of the compared slice sizes (64, 1,024, 16,384 units).
    for (const at of [
      0, 63, 64, 65, 1023, 1024, 16_383, 16_384, 16_449, 39_999,
    ]) {
      const edited = `${text.slice(0, at)}#${text.slice(at + 1)}`;
      const delta = encodeRevision(2, edited, {
        rev: 1,
        json: text,
        base: 1,
        chain: 0,
      });
      expect([delta.head, delta.tail, delta.data.length]).toEqual([
        at,
        text.length - at - 1,
        1,
      ]);
      expect(read([keyframe(1, text), delta], [1, 2])).toBe(edited);
    }
  });

  it('never cuts a surrogate pair, so the middle survives UTF-8', () => {
    const one = '{"a":"😀"}';
    const two = '{"a":"😁"}';
    const delta = encodeRevision(2, two, {
      rev: 1,
      json: one,
      base: 1,
      chain: 0,
    });
    expect(read([keyframe(1, one), delta], [1, 2])).toBe(two);
  });

  it('takes a cut found already only for its own two texts, and writes what it writes without it', () => {
    const pad = 'x'.repeat(200);
    const surrogates = `{"a":"😀😀😀","b":"${pad}"}`;
    const pairs: [string, string][] = [
      [big('first'), big('second')],
      [big('same'), big('same')],
      [big('long mark'), big('')],
      // The cut falls between the halves of a surrogate pair: the start kept is one unit shorter.
      [surrogates, surrogates.replace('😀","b"', '😁","b"')],
      [surrogates, surrogates.replace('😀😀😀', '😀😁😀')],
      // … and then the end kept may be one unit longer than the cut's.
      [`{"a":"😀","b":"${pad}"}`, `{"a":"😁😀","b":"${pad}"}`],
    ];
    const cutOf = (from: string, to: string) => {
      const max = Math.min(from.length, to.length);
      const head = commonHead(from, to, max);
      return { from, to, head, tail: commonTail(from, to, max - head) };
    };
    for (const [one, two] of pairs) {
      const previous = { rev: 1, json: one, base: 1, chain: 0 };
      const computed = encodeRevision(2, two, previous);
      expect(
        encodeRevision(2, two, { ...previous, cut: cutOf(one, two) }),
      ).toEqual(computed);
      // A cut of other texts is not this write's: it is found again.
      const other = `  ${two.slice(3)}`;
      const { head, tail } = cutOf(one, other);
      expect(
        encodeRevision(2, two, { ...previous, cut: cutOf(one, other) }),
      ).toEqual(computed);
      const cut = { from: other, to: two, head, tail };
      expect(encodeRevision(2, two, { ...previous, cut })).toEqual(computed);
      expect(read([keyframe(1, one), computed], [1, 2])).toBe(two);
    }
  });

  it('writes a keyframe when the revision before is not the previous one, or the chain is full', () => {
    const text = big('x');
    expect(
      encodeRevision(5, text, { rev: 3, json: text, base: 1, chain: 0 }).base,
    ).toBe(5);
    expect(
      encodeRevision(MAX_CHAIN + 1, text, {
        rev: MAX_CHAIN,
        json: text,
        base: 1,
        chain: 0,
      }).base,
    ).toBe(MAX_CHAIN + 1);
  });

  it('writes a keyframe once the deltas since the last one outweigh a quarter of the text', () => {
    const one = big('a');
    const two = big('b');
    const full = encodeRevision(2, two, {
      rev: 1,
      json: one,
      base: 1,
      chain: Math.ceil(two.length / 4),
    });
    expect(full.base).toBe(2);
    expect(read([full], [2])).toBe(two);
  });

  it('replays a long chain of edits anywhere in a large text exactly', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let text = big('start');
    const texts = [text];
    const chain: RevisionContent[] = [keyframe(1, text)];
    let previous = { rev: 1, json: text, base: 1, chain: 0 };
    for (let rev = 2; rev <= 400; rev++) {
      const at = Math.floor(rnd() * text.length);
      const cut = Math.floor(rnd() * 30);
      const insert = rnd() < 0.5 ? '' : `"é${rev}😀"`.repeat(1 + (rev % 3));
      // Stored texts are well-formed UTF-16 (they arrive as UTF-8): a cut through a pair is repaired.
      text = Buffer.from(
        text.slice(0, at) + insert + text.slice(at + cut),
        'utf8',
      ).toString('utf8');
      const content = encodeRevision(rev, text, previous);
      chain.push(content);
      texts.push(text);
      previous = { rev, json: text, base: content.base, chain: content.chain };
    }
    const reader = new ChainReader();
    chain.forEach((content, i) => {
      reader.apply(content, i + 1);
      expect(reader.text()).toBe(texts[i]);
    });
  });

  it('refuses a keyframe that inflates past its limit, or is not deflated data, with its own error', () => {
    // 64 MiB of zeros deflate to about 64 KB: a bomb for a reader limited to 1 MiB.
    const bomb = {
      base: 1,
      head: 0,
      tail: 0,
      chain: 0,
      data: deflateRawSync(Buffer.alloc(64 * 1024 * 1024)),
    };
    const limited = new ChainReader(1024 * 1024);
    expect(() => limited.apply(bomb, 1)).toThrow(RevisionContentError);
    expect(() => limited.apply(bomb, 1)).toThrow(
      /inflates to more than the limit of 1048576 bytes/,
    );
    const garbage = { ...bomb, data: Buffer.from([0xff, 0xff, 0xff]) };
    expect(() => limited.apply(garbage, 1)).toThrow(/not deflated data/);
    // Within its limit, a keyframe reads back.
    expect(read([keyframe(1, 'x'.repeat(1000))], [1])).toBe('x'.repeat(1000));
  });

  it('refuses a delta whose kept start and end do not fit the text before it', () => {
    const text = '{"a":"0123456789"}';
    const delta = (head: number, tail: number, data = 'x') => ({
      base: 1,
      head,
      tail,
      chain: 1,
      data: Buffer.from(data),
    });
    for (const [head, tail] of [
      [text.length + 1, 0],
      [0, text.length + 1],
      [10, text.length - 9],
      [-1, 0],
      [0, 1.5],
    ] as const) {
      const reader = new ChainReader();
      reader.apply(keyframe(1, text), 1);
      expect(() => reader.apply(delta(head, tail), 2)).toThrow(
        RevisionContentError,
      );
      // The reader keeps the text it had.
      expect(reader.text()).toBe(text);
    }
    // Exactly the whole text kept, around an insertion, still reads.
    const reader = new ChainReader();
    reader.apply(keyframe(1, text), 1);
    reader.apply(delta(10, text.length - 10, '#'), 2);
    expect(reader.text()).toBe(`${text.slice(0, 10)}#${text.slice(10)}`);
  });

  it('refuses a delta that makes the text longer than its limit', () => {
    const reader = new ChainReader(100);
    reader.apply(keyframe(1, 'x'.repeat(90)), 1);
    const grow = {
      base: 1,
      head: 90,
      tail: 0,
      chain: 20,
      data: Buffer.from('y'.repeat(20)),
    };
    expect(() => reader.apply(grow, 2)).toThrow(/longer than the limit of 100/);
  });

  it('refuses a delta without its keyframe', () => {
    const delta = {
      base: 1,
      head: 0,
      tail: 0,
      chain: 1,
      data: Buffer.from('x'),
    };
    expect(() => new ChainReader().apply(delta, 2)).toThrow(
      RevisionContentError,
    );
  });
});
