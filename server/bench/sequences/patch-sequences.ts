/**
 * The edit users actually make (issue 33): one link of a 500-link config changed. Our server is sent a
 * one-link `PATCH /configs/:name` (a JSON Merge Patch); a server without PATCH gets the same edit as its
 * clients must send it, the whole config in a `PUT`. Both sequences make the same edit for the same index.
 */
import { DEFAULT_SEED, generateConfig } from '../dataset.js';
import type { BenchRequest, RequestSequence } from './request-sequences.js';

/** Config names the edit scenario writes (outside the dataset, so reads are not affected). */
export const PATCH_NAMES = Array.from(
  { length: 8 },
  (_, i) => `bench-patch-${i}`,
);

/** Links of the edited configs. */
export const PATCH_LINKS = 500;

/** A config's JSON text with the offsets of each link's label value in it (its JSON string). */
interface LabelledText {
  readonly text: string;
  /** Per link, the start and end of its label's JSON string in `text`. */
  readonly labels: readonly (readonly [number, number])[];
}

/** The edited configs' starting text, with where each link's label sits in it. */
function labelledBase(links: number): LabelledText {
  const config = generateConfig({ links, seed: DEFAULT_SEED - 2 });
  const marks: string[] = [];
  const linkIds = Object.keys(config.allLinks);
  for (const [k, id] of linkIds.entries()) {
    const link = config.allLinks[id];
    if (link === undefined) continue;
    marks.push(JSON.stringify(link.label ?? ''));
    link.label = `\u0000${k}\u0000`;
  }
  const parts = JSON.stringify(config).split(/"\\u0000\d+\\u0000"/);
  let text = parts[0] ?? '';
  const labels: [number, number][] = [];
  for (const [k, mark] of marks.entries()) {
    labels.push([text.length, text.length + mark.length]);
    text += mark + (parts[k + 1] ?? '');
  }
  return { text, labels };
}

/** Request `n`'s edit: which config, which link, its new label. */
function editOf(n: number, links: number) {
  return {
    name: PATCH_NAMES[n % PATCH_NAMES.length] ?? 'bench-patch-0',
    link: (n * 7919) % links,
    label: `Edited ${n}`,
  };
}

/** The two sequences of the edit scenario, and the `PUT`s that create its configs first. */
export interface EditSequences {
  /** A one-link `PATCH` each (ours). */
  readonly patch: RequestSequence;
  /** The same edit as a `PUT` of the whole config (a server without `PATCH`). */
  readonly put: RequestSequence;
  /** `PUT` of each edited config's starting text: sent before the edits (a `PATCH` never creates). */
  readonly setup: readonly BenchRequest[];
}

/** The edit scenario's requests over configs of `links` links. */
export function editSequences(links = PATCH_LINKS): EditSequences {
  const base = labelledBase(links);
  const size = 1_000_000_000;
  return {
    patch: {
      size,
      at: (n) => {
        const edit = editOf(n, links);
        const patch = {
          allLinks: { [`l${edit.link}`]: { label: edit.label } },
        };
        return {
          method: 'PATCH',
          path: `/configs/${edit.name}`,
          body: JSON.stringify(patch),
        };
      },
    },
    put: {
      size,
      at: (n) => {
        const edit = editOf(n, links);
        const [start = 0, end = 0] = base.labels[edit.link] ?? [];
        const body = `${base.text.slice(0, start)}${JSON.stringify(edit.label)}${base.text.slice(end)}`;
        return { method: 'PUT', path: `/configs/${edit.name}`, body };
      },
    },
    setup: PATCH_NAMES.map((name) => ({
      method: 'PUT',
      path: `/configs/${name}`,
      body: base.text,
    })),
  };
}
