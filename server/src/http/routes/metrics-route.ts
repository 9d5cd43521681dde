import type { Context, Hono } from 'hono';
import { createAuthenticator } from '../../auth.js';
import { HttpError } from '../http-error.js';
import type { Metrics } from '../metrics.js';

/** Options of {@link mountMetrics}. */
export interface MetricsRouteOptions {
  readonly metrics: Metrics;
  /** When set, `GET /metrics` needs exactly this bearer token (and read tokens no longer open it). */
  readonly metricsToken?: string | undefined;
  /** Throws when the request may not read (used when there is no `metricsToken`). */
  readonly checkRead: (c: Context) => void;
}

/**
 * Serves `GET /metrics` in Prometheus' text format (the requests themselves are recorded by the app's
 * request middleware, `observeAnswer`). A separate `METRICS_TOKEN` lets the scraper in without handing
 * it a token that can read the configs.
 */
export function mountMetrics(app: Hono, options: MetricsRouteOptions): void {
  const { metrics } = options;
  // The token check of the API token, reused: constant-time and on digests.
  const scraper =
    options.metricsToken === undefined
      ? undefined
      : createAuthenticator({ apiToken: options.metricsToken });
  app.get('/metrics', async (c) => {
    if (scraper === undefined) {
      options.checkRead(c);
    } else if (
      scraper(c.req.header('authorization'), {
        open: false,
        now: 0,
      }).token() !== 'api'
    ) {
      throw new HttpError(
        401,
        'GET /metrics needs the metrics token (Authorization: Bearer <METRICS_TOKEN>)',
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
    // With WORKERS > 1 the primary collects every worker's figures; if it cannot, say so (503), and the
    // scraper tries again at its next interval.
    const { body, contentType } = await metrics.render().catch(() => {
      throw new HttpError(
        503,
        'the metrics of the other workers are not available',
        {
          'Retry-After': '1',
        },
      );
    });
    return new Response(body, {
      headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' },
    });
  });
}
