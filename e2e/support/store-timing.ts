/**
 * Read-outs and barriers for tests of the hybrid store's timing rules (slow answers, Retry-After). They
 * look at the page's IndexedDB and Web Locks directly, never at the store's code, so they hold for any
 * build of the page.
 */
import type { Page, Request } from '@playwright/test';
import type { Link } from '@linkconfig/shared';

/** What this browser holds for one config name. */
export interface LocalCopy {
  /** The links of the local copy; `null` when the browser has none. */
  links: Record<string, Link> | null;
  /** Names with a write waiting in the outbox. */
  outbox: string[];
}

/**
 * The local copy of `name` and the outbox, read in a read-write transaction over the stores the hybrid
 * store writes. IndexedDB starts read-write transactions of one database in the order they were created,
 * so this read comes after every write the page had started (for example caching a server answer that
 * just arrived) and sees its outcome.
 */
export async function localCopy(page: Page, name: string): Promise<LocalCopy> {
  return page.evaluate(
    (configName) =>
      new Promise<LocalCopy>((done, fail) => {
        const open = indexedDB.open('linkconfig');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(
            ['configs', 'outbox', 'versions'],
            'readwrite',
          );
          const config = tx.objectStore('configs').get(configName);
          const outbox = tx.objectStore('outbox').getAllKeys();
          tx.onerror = () => fail(tx.error);
          tx.oncomplete = () => {
            db.close();
            const record = config.result as
              { config: { allLinks: Record<string, Link> } } | undefined;
            done({
              links: record?.config.allLinks ?? null,
              outbox: (outbox.result as IDBValidKey[]).map(String),
            });
          };
        };
      }),
    name,
  );
}

/**
 * Waits until no delivery pass of the page's hybrid store is running: it takes the Web Lock the store's
 * queue holds for a pass (`linkconfig-sync`, the default name) and lets it go at once. A pass that had
 * started before (say, from a timer that just fired) has sent its request and got its answer by then.
 * Passes that a Retry-After holds back never take the lock.
 */
export async function deliveryIdle(page: Page): Promise<void> {
  await page.evaluate(() =>
    navigator.locks.request('linkconfig-sync', () => undefined),
  );
}

/** One request the page sent, as the test saw it. */
export interface SentRequest {
  method: string;
  path: string;
  /** The JSON body, if any. */
  body: unknown;
  /** The phase of the test it was sent in (see {@link RequestLog.phase}). */
  phase: string;
}

/** Records the page's requests whose path starts with `prefix`, labelled with the test's phase. */
export class RequestLog {
  readonly sent: SentRequest[] = [];
  /** The label given to requests from now on. */
  phase = 'start';

  constructor(page: Page, prefix: string) {
    page.on('request', (request: Request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith(prefix)) return;
      let body: unknown;
      try {
        body = request.postDataJSON() as unknown;
      } catch {
        body = request.postData();
      }
      this.sent.push({
        method: request.method(),
        path,
        body,
        phase: this.phase,
      });
    });
  }

  /** The requests with `method` (all when omitted) sent in `phase`. */
  in(phase: string, method?: string): SentRequest[] {
    return this.sent.filter(
      (request) =>
        request.phase === phase &&
        (method === undefined || request.method === method),
    );
  }
}
