/**
 * The rules of managing webhooks, shared by `/hooks` (REST and tRPC) and `linkconfig hooks`: a new hook
 * gets a random id and signing secret (answered once), starts at the log's head (it hears of what happens
 * from then on), and is managed only by a caller whose patterns cover the hook's: an admin key for
 * `site-a/*` makes, sees and removes hooks within `site-a/*` only (as with keys, `/keys`).
 */
import { randomBytes } from 'node:crypto';
import { patternsWithin } from '@linkconfig/shared';
import type {
  CreateHookInput,
  CreateHookOutput,
  Hook,
  HookDelivery,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import type { HookStore, StoredHook } from '../storage/hook-store.js';
import type { HookLog } from './hook-log.js';
import { newHookSecret } from './hook-signature.js';

/** Whose hooks: the name patterns of the caller (`['*']`: every hook). */
export interface HookManager {
  readonly configs: readonly string[];
}

/** The operator on the database (`linkconfig hooks`), and `API_TOKEN`: every hook. */
export const EVERY_HOOK: HookManager = { configs: ['*'] };

/** A stored hook as callers see it: everything but its secret. */
export function publicHook(hook: StoredHook): Hook {
  return {
    id: hook.id,
    url: hook.url,
    events: [...hook.events],
    configs: [...hook.configs],
    createdAt: hook.createdAt,
    cursor: hook.cursor,
    attempts: hook.attempts,
    failingSince: hook.failingSince,
    lastError: hook.lastError,
  };
}

/** Options of {@link HookService}. */
export interface HookServiceOptions {
  readonly store: HookStore;
  readonly log: Pick<HookLog, 'head'>;
  readonly now?: () => Date;
  /** Told when a hook is made (the worker looks at the log). */
  readonly created?: () => void;
}

/** Webhooks: made, listed, removed, and their delivery logs read. */
export class HookService {
  readonly #store: HookStore;
  readonly #log: Pick<HookLog, 'head'>;
  readonly #now: () => Date;
  readonly #created: () => void;

  constructor(options: HookServiceOptions) {
    this.#store = options.store;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
    this.#created = options.created ?? (() => undefined);
  }

  /** Makes a hook; its secret is in this answer only. 403 when its patterns reach beyond `by`'s. */
  async create(
    input: CreateHookInput,
    by: HookManager = EVERY_HOOK,
  ): Promise<CreateHookOutput> {
    const outside = input.configs.find((p) => !patternsWithin([p], by.configs));
    if (outside !== undefined) {
      throw new DomainError(
        'forbidden',
        `this key may not make a hook for "${outside}": it reaches beyond its own patterns (${by.configs.join(', ')})`,
      );
    }
    const now = this.#now();
    const secret = newHookSecret();
    const hook: StoredHook = {
      id: `hook_${randomBytes(9).toString('base64url')}`,
      url: input.url,
      events: [...new Set(input.events)],
      configs: [...new Set(input.configs)],
      secret,
      createdAt: now.toISOString(),
      cursor: await this.#log.head(),
      attempts: 0,
      failingSince: null,
      nextAt: now.getTime(),
      lastError: null,
    };
    await this.#store.insert(hook);
    this.#created();
    return { ...publicHook(hook), secret };
  }

  /** The hooks within `by`, without secrets. */
  async list(by: HookManager = EVERY_HOOK): Promise<Hook[]> {
    return (await this.#store.list())
      .filter((hook) => patternsWithin(hook.configs, by.configs))
      .map(publicHook);
  }

  /** Removes a hook within `by`; `false` when there is none with this id within `by` (the same answer). */
  async remove(id: string, by: HookManager = EVERY_HOOK): Promise<boolean> {
    const hook = await this.#within(id, by);
    return hook !== null && (await this.#store.remove(id));
  }

  /** Up to `limit` delivery attempts of a hook within `by`, newest first; `null`: no such hook. */
  async deliveries(
    id: string,
    limit: number,
    by: HookManager = EVERY_HOOK,
  ): Promise<HookDelivery[] | null> {
    const hook = await this.#within(id, by);
    return hook === null ? null : this.#store.deliveries(id, limit);
  }

  async #within(id: string, by: HookManager): Promise<StoredHook | null> {
    const hook = await this.#store.get(id);
    return hook !== null && patternsWithin(hook.configs, by.configs)
      ? hook
      : null;
  }
}
