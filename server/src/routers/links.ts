import {
  CheckLinksInputSchema,
  CheckLinksOutputSchema,
  ConfigLinkHealthInputSchema,
  ConfigLinkHealthOutputSchema,
  LINK_HEALTH_LIMITS,
  LinksHealthInputSchema,
  LinksHealthOutputSchema,
} from '@linkconfig/shared';
import { configNotFound } from '../errors.js';
import { SCAN_BUSY_RESPONSE } from '../services/scan-permits.js';
import { operation, plain, proceduresOf, router } from '../trpc.js';

const tags = ['links'];

/** Link health (docs/link-health.md): per config, across configs, and a check on demand. */
export const linksOperations = {
  health: operation({
    access: 'read',
    configName: 'name',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs/{name}/links/health',
        tags,
        summary: "Each link of a config with its URL's health",
        description:
          'Per link: its state (`ok`, `redirected`, `broken`, `unreachable`, `blocked`, `unchecked`), since when, when it was last checked, the last HTTP status, where its redirects end, and the evidence in words; a failure not yet confirmed shows in `failingSince`.',
        errorResponses: { 404: 'No config has this name' },
      },
    },
    input: ConfigLinkHealthInputSchema,
    output: ConfigLinkHealthOutputSchema,
    run: async (ctx, input) => {
      const health = await ctx.services.linkHealth.ofConfig(
        input.name,
        ctx.stateToken,
        ctx.auth,
      );
      if (health === null) throw configNotFound(input.name);
      return { value: health };
    },
  }),

  across: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'GET',
        path: '/links/health',
        tags,
        summary: 'Links in some states across the configs the caller may read',
        description: `By default the links that need attention (broken, unreachable, redirected), in config-name order; \`limit\` per page (default ${LINK_HEALTH_LIMITS.defaultLimit}, at most ${LINK_HEALTH_LIMITS.maxLimit}), \`after\` the \`next\` of the page before.`,
        errorResponses: { 503: SCAN_BUSY_RESPONSE },
      },
      rest: { expensive: true },
    },
    input: LinksHealthInputSchema,
    output: LinksHealthOutputSchema,
    run: (ctx, input, { signal }) =>
      plain(
        ctx.services.linkHealth.across(
          {
            state: input?.state,
            limit: input?.limit ?? LINK_HEALTH_LIMITS.defaultLimit,
            after: input?.after,
          },
          { state: ctx.stateToken, readable: ctx.auth, signal },
        ),
      ),
  }),

  check: operation({
    access: 'write',
    configName: 'name',
    meta: {
      openapi: {
        method: 'POST',
        path: '/configs/{name}/links/check',
        tags,
        summary: "Check a config's links now",
        description:
          'Makes the distinct URLs of the config due now; the checker takes them within its politeness limits. 409 while link checking is off (`LINK_CHECK`). Counts against the write rate limit.',
        errorResponses: {
          404: 'No config has this name',
          409: 'Link checking is off on this server',
        },
      },
      rest: { body: 'none' },
    },
    input: CheckLinksInputSchema,
    output: CheckLinksOutputSchema,
    run: (ctx, input) =>
      plain(ctx.services.linkHealth.checkNow(input.name, ctx.stateToken)),
  }),
};

export const linksRouter = router(proceduresOf(linksOperations));
