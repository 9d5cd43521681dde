import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkConfig } from '@linkconfig/shared';
import { initialState } from '../state/state.js';
import type { AppState } from '../state/state.js';
import type { ConfigActions } from './config-actions.js';
import {
  DuplicatesActions,
  URL_WARNING_DELAY_MS,
} from './duplicates-actions.js';
import { OrderActions } from './order-actions.js';
import type { PageContext } from './page-context.js';

const config: LinkConfig = {
  allLinks: {
    guide: { url: 'https://example.com/guide/', label: 'Guide', tags: ['a'] },
    other: { url: 'https://example.org/' },
    news: {
      url: 'https://example.com/guide?utm_source=x',
      label: 'News',
      tags: ['b'],
    },
  },
  macros: { m: { linkItems: 'news | other' } },
};

/** A page with `config` open as "c", and what it was asked to do. */
function page(): { page: PageContext; state: AppState } {
  vi.stubGlobal('navigator', { onLine: true });
  const state = initialState();
  state.open = {
    name: 'c',
    draft: structuredClone(config),
    dirty: false,
    settingsText: '',
    settingsProblem: null,
    saveProblem: null,
    remote: null,
    incoming: null,
    targetLinkId: null,
  };
  const context: PageContext = {
    state,
    raw: (value) => value,
    focus: () => undefined,
    announce: (text) => void (state.announcement = text),
    ask: () => Promise.resolve(true),
    session: () => null,
    describe: String,
    refreshNames: () => Promise.resolve(),
    recheckExpression: () => undefined,
  };
  return { page: context, state };
}

/** Config actions whose saveAs records each config saved and shows it as saved. */
function saver(state: AppState): {
  configs: ConfigActions;
  saved: LinkConfig[];
} {
  const saved: LinkConfig[] = [];
  const configs = {
    saveAs: (next: LinkConfig) => {
      saved.push(structuredClone(next));
      if (state.open !== null) {
        state.open.draft = structuredClone(next);
        state.open.dirty = false;
      }
      return Promise.resolve();
    },
  } as unknown as ConfigActions;
  return { configs, saved };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('CSS', { escape: (text: string) => text });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the URL warning of the link form', () => {
  it('names the links with the same page, only after typing pauses, for the latest text', () => {
    const { page: context, state } = page();
    const actions = new DuplicatesActions(context, saver(state).configs);
    actions.urlTyped('https://example.org/elsewhere');
    actions.urlTyped('http://www.example.com/guide#top');
    vi.advanceTimersByTime(URL_WARNING_DELAY_MS - 1);
    expect(state.duplicates.urlWarning).toBeNull();
    vi.advanceTimersByTime(1);
    expect(state.duplicates.urlWarning).toEqual({
      url: 'http://www.example.com/guide#top',
      ids: ['guide', 'news'],
    });
    // The link being edited is not its own duplicate.
    state.link.editing = 'guide';
    actions.urlTyped('https://example.com/guide');
    vi.advanceTimersByTime(URL_WARNING_DELAY_MS);
    expect(state.duplicates.urlWarning?.ids).toEqual(['news']);
    actions.urlTyped('https://example.net/');
    vi.advanceTimersByTime(URL_WARNING_DELAY_MS);
    expect(state.duplicates.urlWarning).toBeNull();
  });
});

describe('merging two links from the Duplicates section', () => {
  it('saves once with the references rewritten, and Undo saves the version before', async () => {
    const { page: context, state } = page();
    const { configs, saved } = saver(state);
    const actions = new DuplicatesActions(context, configs);
    actions.startMerge('guide', 'news');
    actions.pick('label', 'remove');
    await actions.applyMerge();
    expect(saved).toHaveLength(1);
    expect(Object.keys(saved[0]!.allLinks)).toEqual(['guide', 'other']);
    expect(saved[0]!.allLinks['guide']?.label).toBe('News');
    expect(saved[0]!.allLinks['guide']?.tags).toEqual(['a', 'b']);
    expect(saved[0]!.macros?.['m']?.linkItems).toBe('guide | other');
    expect(state.duplicates.applied?.references).toEqual([
      'macros.m: news | other → guide | other',
    ]);
    await actions.undo();
    expect(saved).toHaveLength(2);
    expect(JSON.stringify(saved[1])).toBe(JSON.stringify(config));
    expect(state.duplicates.applied).toBeNull();
  });

  it('refuses to merge over unsaved edits', async () => {
    const { page: context, state } = page();
    const { configs, saved } = saver(state);
    const actions = new DuplicatesActions(context, configs);
    state.open!.dirty = true;
    actions.startMerge('guide', 'news');
    await actions.applyMerge();
    expect(saved).toHaveLength(0);
    expect(state.duplicates.problem).toMatch(/unsaved edits/);
  });
});

describe('the Menu order section', () => {
  it('moves links in the draft (unsaved until Save), never an integer-like id', () => {
    const { page: context, state } = page();
    const order = new OrderActions(context);
    order.move('news', 'top');
    expect(Object.keys(state.open!.draft.allLinks)).toEqual([
      'news',
      'guide',
      'other',
    ]);
    expect(state.open!.dirty).toBe(true);
    order.move('news', { to: 'other', after: true });
    expect(Object.keys(state.open!.draft.allLinks)).toEqual([
      'guide',
      'other',
      'news',
    ]);
    state.open!.draft = {
      allLinks: {
        7: { url: 'https://seven.example/' },
        ...state.open!.draft.allLinks,
      },
    };
    order.move('7', 'bottom');
    expect(Object.keys(state.open!.draft.allLinks)[0]).toBe('7');
    expect(state.announcement).toMatch(/cannot move/);
  });
});
