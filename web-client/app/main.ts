/**
 * The Link Config web page (issue #5): manage configs through an offline-first hybrid store
 * (IndexedDB + the server's REST API on this origin), run expressions and search.
 */
import './strict-csp.js';
import { ConfigNameSchema } from '@linkconfig/shared';
import type { LinkConfig } from '@linkconfig/shared';
import {
  createHybridStore,
  createIndexedDBStore,
  createRemoteStore,
} from '@linkconfig/web-client';
import type { HybridStore } from '@linkconfig/web-client';
import { ConfigEditor } from './config-editor.js';
import { ConfigList } from './config-list.js';
import { messageOf, plainWords } from './plain-words.js';
import { Reachability } from './reachability.js';
import { setupResults } from './results-view.js';
import { StatusView } from './status-view.js';

/** How often the page refreshes the names and the open config in the background. */
const REFRESH_MS = 4000;

async function start(): Promise<void> {
  const status = new StatusView({
    retry: (name) => void guard(() => store.retryDeadLetter(name)),
    discard: (name) => void guard(() => store.discardDeadLetter(name)),
  });
  const reach = new Reachability();
  let store: HybridStore;
  try {
    store = createHybridStore({
      local: await createIndexedDBStore(),
      remote: createRemoteStore({
        baseUrl: location.origin,
        fetch: reach.fetch,
      }),
    });
  } catch (error) {
    status.showProblem(
      `This browser refused to store data (${messageOf(error)}). The page cannot work offline here; try a normal (not private) window.`,
    );
    return;
  }

  /** Runs `work`, showing a failure in the status line instead of throwing. */
  async function guard(work: () => Promise<unknown>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (error) {
      status.showProblem(plainWords(messageOf(error)));
      return false;
    }
  }

  const editor = new ConfigEditor({
    save: (name, config) =>
      guard(async () => {
        await store.save(name, config);
        await refreshNames();
      }),
    remove: (name) =>
      guard(async () => {
        await store.remove(name);
        editor.close(`Config "${name}" was deleted.`);
        list.select(null);
        await refreshNames();
      }),
  });

  const list = new ConfigList({
    open: (name) => void openConfig(name),
    create: async (name) => {
      const valid = ConfigNameSchema.safeParse(name);
      if (!valid.success) {
        status.showProblem(
          `"${name}" cannot be a config name: ${valid.error.issues[0]?.message ?? 'invalid'}.`,
        );
        return false;
      }
      if ((await store.load(name)) === null) {
        const empty: LinkConfig = { allLinks: {} };
        if (!(await guard(() => store.save(name, empty)))) return false;
        await refreshNames();
      }
      await openConfig(name);
      return true;
    },
  });

  async function refreshNames(): Promise<void> {
    await guard(async () => list.show(await store.list()));
  }

  async function openConfig(name: string): Promise<void> {
    await guard(async () => {
      const config = await store.load(name);
      if (config === null) {
        editor.close(
          `Config "${name}" could not be found here or on the server.`,
        );
        list.select(null);
        return;
      }
      editor.open(name, config);
      list.select(name);
      document.getElementById('editor')?.focus();
    });
  }

  // A background refresh changed a config: show it, unless the person is editing it.
  store.subscribeChanges((name) => {
    if (name !== editor.openName) return;
    void guard(async () => {
      const config = await store.load(name);
      if (config !== null) editor.refresh(name, config);
    });
  });

  // The server answers again (after failing): send what waits now rather than at the next retry.
  reach.subscribe((now, before) => {
    status.setReachable(now);
    if (now && before === false) void store.sync();
  });

  const publish = () => {
    status.update(store.getStatus());
    void store.deadLetters().then(
      (letters) => status.showDeadLetters(letters),
      () => undefined,
    );
  };
  store.subscribe(publish);
  publish();

  setupResults({
    fetch: reach.fetch,
    openName: () => editor.openName,
    problem: (message) => status.showProblem(message),
  });

  // Background refresh: names, and the open config (a load refreshes it from the server). A successful
  // call also tells the store the server is back, so waiting changes go out without an `online` event.
  const tick = async () => {
    if (document.hidden) return;
    await refreshNames();
    const open = editor.openName;
    if (open !== null && !editor.hasUnsavedEdits)
      await guard(() => store.loadEntry(open));
  };
  setInterval(() => void tick(), REFRESH_MS);
  document.addEventListener('visibilitychange', () => void tick());

  await refreshNames();
  const initial = new URLSearchParams(location.search).get('config');
  if (initial !== null) await openConfig(initial);
  document.body.dataset['ready'] = 'true';
}

/** Registers the service worker that keeps the page itself available offline. */
function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch(() => {
    // Not available (blocked, or not a secure context): the page still works, only not from cache.
  });
}

registerServiceWorker();
void start();
