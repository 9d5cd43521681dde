/**
 * Per-client rate limits with two budgets: writes, and reads that cost real CPU (expressions, search).
 * Cheap reads are never limited, except under `/published`, which has two budgets of its own (per key,
 * per address) that protect the origin when no shared cache is in front. The limits are per server
 * instance: several instances behind a balancer each give a client its full budget.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Metrics } from '../metrics.js';
import { REST_ROUTES, isPublishedPath } from '../routes/route-table.js';
import type { RestRoute } from '../routes/route-table.js';
import { TokenBuckets } from '../token-buckets.js';
import { trpcCalls } from '../trpc-calls.js';
import type { RateBudget } from '../token-buckets.js';

/** The budgets. */
export const BUDGET = {
  reads: 'expensive-reads',
  writes: 'writes',
  publishedByKey: 'published-by-key',
  publishedByAddress: 'published-by-address',
} as const;
/** A budget's name (the `budget` label of `linkconfig_rate_limited_total`). */
export type BudgetName = (typeof BUDGET)[keyof typeof BUDGET];

/** What a budget's calls are, in its refusals. */
const WHAT: Readonly<Record<BudgetName, string>> = {
  [BUDGET.reads]: 'expensive reads',
  [BUDGET.writes]: 'writes',
  [BUDGET.publishedByKey]: 'published reads',
  [BUDGET.publishedByAddress]: 'published reads',
};

/**
 * The budget of a route, from the route table: every write, and every read its operation declares
 * expensive (`rest.expensive`: search, expressions). The tRPC procedure behind a route (same name)
 * shares its budget, so `/trpc` is no way around a limit.
 */
export function budgetOf(route: RestRoute): BudgetName | undefined {
  if (route.access !== 'read') return BUDGET.writes;
  return route.expensive ? BUDGET.reads : undefined;
}

/** Options of {@link mountRateLimits}. */
export interface RateLimitOptions {
  readonly reads: RateBudget;
  readonly writes: RateBudget;
  /**
   * Every request under `/published`: one with a valid key spends its key's budget (`byKey`), one
   * without spends its address's (`byAddress`). Absent: `/published` is not limited.
   */
  readonly published?:
    { readonly byKey: RateBudget; readonly byAddress: RateBudget } | undefined;
  /** Who the client is (see {@link clientKey}). */
  readonly clientKey: (c: Context) => string;
  /** The REST routes and their procedures (default: the service's route table). */
  readonly routes?: readonly RestRoute[];
  readonly metrics?: Pick<Metrics, 'rateLimited'>;
  /** Most clients tracked per budget (default 50,000). */
  readonly maxClients?: number;
  /** The clock in milliseconds (tests move it). */
  readonly now?: () => number;
}

/**
 * A client's budget key: its key's id when it sent a valid key or token (one budget per key, wherever
 * its requests come from), otherwise its address. Invalid keys count as none, so inventing them buys
 * nothing.
 */
export function clientKey(keyId: string | null, address: string): string {
  return keyId === null ? `addr:${address}` : `key:${keyId}`;
}

/** Whether a {@link clientKey} names a key (else an address). */
const isKeyClient = (client: string): boolean => client.startsWith('key:');

/**
 * Registers the limits as middleware in front of the limited routes and `/trpc/*`; call it before the
 * routes are mounted. Over a budget a request gets 429, `Retry-After` (whole seconds) and `{ error }`.
 */
export function mountRateLimits(app: Hono, options: RateLimitOptions): void {
  const now = options.now ?? (() => performance.now());
  const bucketsOf = (budget: RateBudget): TokenBuckets =>
    new TokenBuckets({
      ...budget,
      ...(options.maxClients === undefined
        ? {}
        : { maxClients: options.maxClients }),
    });
  const { published } = options;
  const buckets: Partial<Record<BudgetName, TokenBuckets>> = {
    [BUDGET.reads]: bucketsOf(options.reads),
    [BUDGET.writes]: bucketsOf(options.writes),
    ...(published === undefined
      ? {}
      : {
          [BUDGET.publishedByKey]: bucketsOf(published.byKey),
          [BUDGET.publishedByAddress]: bucketsOf(published.byAddress),
        }),
  };
  const routes = options.routes ?? REST_ROUTES;
  // A procedure's name is its route's id (`configs.put`).
  const procedureBudget = new Map<string, BudgetName>();
  for (const route of routes) {
    const budget = budgetOf(route);
    if (budget !== undefined) procedureBudget.set(route.id, budget);
  }
  // The procedures of the published view (`published.get`), which spend its budget as its routes do.
  const publishedProcedures = new Set(
    routes
      .filter((route) => isPublishedPath(route.path))
      .map((route) => route.id),
  );
  /** The published budget a client spends: its key's when it sent a valid one, else its address's. */
  const publishedBudget = (c: Context): BudgetName =>
    isKeyClient(options.clientKey(c))
      ? BUDGET.publishedByKey
      : BUDGET.publishedByAddress;

  /** Takes `cost` tokens; `undefined` when they were there, otherwise the 429 answer. */
  const spend = (
    c: Context,
    budget: BudgetName,
    cost: number,
  ): Response | undefined => {
    const wait = buckets[budget]?.take(options.clientKey(c), cost, now()) ?? 0;
    if (wait === 0) return undefined;
    options.metrics?.rateLimited(budget);
    const seconds = Math.max(1, Math.ceil(wait));
    return new Response(
      JSON.stringify({
        error: `too many ${WHAT[budget]} from this client; retry in ${seconds} s`,
      }),
      {
        status: 429,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Retry-After': String(seconds),
        },
      },
    );
  };

  /** The 400 of a batch that would cost more than a whole burst. */
  const oversized = (
    budget: BudgetName,
    cost: number,
    burst: number,
  ): Response =>
    new Response(
      JSON.stringify({
        error: `this batch makes ${cost} ${WHAT[budget]}; a batch may make at most ${burst} (the burst of this budget): send it in parts`,
      }),
      {
        status: 400,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      },
    );

  // Every request under `/published` (its routes are the contract's cheap reads, and the expensive ones
  // spend their own budget too): by key when a valid one came, else by address.
  if (published !== undefined) {
    app.use('/published/*', async (c, next) => {
      const refused = spend(c, publishedBudget(c), 1);
      if (refused !== undefined) return refused;
      await next();
      return undefined;
    });
  }

  for (const route of routes) {
    const budget = budgetOf(route);
    if (budget === undefined) continue;
    app.on(route.method, route.honoPath, async (c, next) => {
      const refused = spend(c, budget, 1);
      if (refused !== undefined) return refused;
      await next();
      return undefined;
    });
  }

  // `/trpc/a.b,c.d?batch=1` calls several procedures at once: each limited call costs a token, and a
  // batch that costs more than a whole burst is refused (400) before anything is charged: no client
  // may ever make more limited calls at once than its burst. The names are resolved as tRPC resolves
  // them (trailing slashes, percent-encoding; see trpc-calls.ts).
  const trpc: MiddlewareHandler = async (c, next) => {
    const names = trpcCalls(c.req.url);
    const costs: (readonly [BudgetName, number])[] = (
      [BUDGET.writes, BUDGET.reads] as const
    ).map(
      (budget) =>
        [
          budget,
          names.filter((name) => procedureBudget.get(name) === budget).length,
        ] as const,
    );
    // A call of the published view spends its budget too, as a request under `/published` does.
    if (published !== undefined) {
      costs.push([
        publishedBudget(c),
        names.filter((name) => publishedProcedures.has(name)).length,
      ]);
    }
    for (const [budget, cost] of costs) {
      const burst = buckets[budget]?.burst ?? Infinity;
      if (cost > burst) return oversized(budget, cost, burst);
    }
    for (const [budget, cost] of costs) {
      if (cost === 0) continue;
      const refused = spend(c, budget, cost);
      if (refused !== undefined) return refused;
    }
    await next();
    return undefined;
  };
  app.use('/trpc/*', trpc);
}
