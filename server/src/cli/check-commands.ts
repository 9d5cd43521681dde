/**
 * `linkconfig check [NAME…] [--json] [--fail-on broken|failing]`: one run of the link checker on the
 * database (`--database-url` or `DATABASE_URL`), with the server's rules (politeness, robots.txt, the
 * outbound guard, the confirm rule, leases), then a report; made for a site's CI (docs/link-health.md).
 * With `--server URL [--key K]`, the running server checks instead (`check-remote.ts`).
 */
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { isConfirmedFailure } from '@linkconfig/shared';
import type {
  ConfigLinkHealthOutput,
  LinkHealthEntry,
} from '@linkconfig/shared';
import { parseDuration } from '../config/duration.js';
import { loadSettings } from '../config/settings.js';
import { checkedUrl } from '../link-health/config-links.js';
import { Outbound, userAgentOf } from '../outbound/index.js';
import { createServices } from '../services/services.js';
import { openRepository } from '../storage/open-repository.js';
import { checkOnServer } from './check-remote.js';
import { databaseUrlOf, UsageError } from './cli-io.js';
import type { CliIo, ExitStatus } from './cli-io.js';

interface CheckOptions {
  readonly databaseUrl?: string;
  readonly server?: string;
  readonly key?: string;
  readonly wait: string;
  readonly json?: boolean;
  readonly failOn?: string;
}

/** What `--fail-on` fails a run for. */
const FAIL_ON = {
  // Confirmed: two failures at least LINK_CHECK_CONFIRM apart.
  broken: (link: LinkHealthEntry) => isConfirmedFailure(link.state),
  // Any failure seen, confirmed or not.
  failing: (link: LinkHealthEntry) =>
    isConfirmedFailure(link.state) || link.failingSince !== null,
} as const;

/** Adds `check` to the program. */
export function addCheckCommands(
  program: Command,
  io: CliIo,
  exit: ExitStatus,
): void {
  program
    .command('check')
    .description(
      "check the links of configs (all of them without names) now, politely, and report each link's state",
    )
    .argument('[names...]', 'configs to check (default: every config)')
    .option('--json', 'print the report as JSON')
    .option(
      '--fail-on <what>',
      'exit with 1 when a link is broken (confirmed broken or unreachable) or failing (any failure)',
    )
    .option('--database-url <url>', 'the database (default: DATABASE_URL)')
    .option(
      '--server <url>',
      'ask this running server (LINK_CHECK=on) to check, instead of checking from here (default LINKCONFIG_SERVER)',
    )
    .option(
      '--key <key>',
      'the bearer key for the server, one that may write the configs (default LINKCONFIG_KEY)',
    )
    .option(
      '--wait <duration>',
      'with --server: how long to wait for the checks at most',
      '10m',
    )
    .action(async (names: string[], options: CheckOptions) => {
      const failOn = options.failOn;
      if (failOn !== undefined && !Object.hasOwn(FAIL_ON, failOn)) {
        throw new UsageError('--fail-on must be broken or failing');
      }
      const server = options.server ?? io.env['LINKCONFIG_SERVER'];
      let reports: ConfigLinkHealthOutput[];
      if (server !== undefined && server !== '') {
        if (options.databaseUrl !== undefined)
          throw new UsageError('--database-url cannot be used with --server');
        const waitMs = parseDuration(options.wait);
        if (waitMs === null)
          throw new UsageError('--wait must be a duration such as 90s or 10m');
        const run = await checkOnServer(
          names,
          { server, key: options.key ?? io.env['LINKCONFIG_KEY'], waitMs },
          io,
        );
        reports = run.reports;
        if (run.waiting > 0) {
          io.stderr.write(
            `${run.waiting} ${run.waiting === 1 ? 'link was' : 'links were'} not checked within ${options.wait}: shown as they were\n`,
          );
          if (failOn !== undefined) exit.code = 1;
        }
      } else {
        if (options.key !== undefined)
          throw new UsageError('--key needs --server');
        reports = await checkConfigs(names, options, io);
      }
      io.stdout.write(
        options.json === true
          ? `${JSON.stringify({ configs: reports }, null, 2)}\n`
          : reports.map(describe).join(''),
      );
      const fails =
        failOn === undefined
          ? undefined
          : FAIL_ON[failOn as keyof typeof FAIL_ON];
      if (fails !== undefined && reports.some((r) => r.links.some(fails))) {
        exit.code = 1;
      }
    });
}

/** Checks the links of `names` (every config when none) and answers each config's link health. */
async function checkConfigs(
  names: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<ConfigLinkHealthOutput[]> {
  const settings = settingsOf(io);
  const repository = await openRepository(databaseUrlOf(options, io));
  const services = createServices({
    repository,
    outbound: new Outbound({
      userAgent: userAgentOf(settings.outboundContact),
      ...(settings.outboundAllow === undefined
        ? {}
        : { allow: settings.outboundAllow }),
    }),
    linkCheck: {
      timing: {
        everyMs: settings.linkCheckEvery,
        confirmMs: settings.linkCheckConfirm,
      },
      ...(io.clock === undefined ? {} : { clock: io.clock }),
    },
  });
  try {
    const chosen = names.length > 0 ? names : await services.configs.list();
    const urls = new Set<string>();
    for (const name of chosen) {
      const view = await services.configs.current(name);
      if (view === null) throw new UsageError(`no config is named "${name}"`);
      const allLinks = view.entry.config.allLinks;
      for (const link of Object.values(allLinks)) {
        const url = checkedUrl(link.url);
        if (url !== null) urls.add(url);
      }
    }
    const bar =
      io.stdout.isTTY === true && urls.size > 0
        ? new SingleBar({
            stream: io.stderr,
            clearOnComplete: true,
            noTTYOutput: true,
            format: 'checking [{bar}] {value}/{total} links',
          })
        : undefined;
    bar?.start(urls.size, 0);
    let done = 0;
    await services.linkHealth.checker.runFor([...urls], () =>
      bar?.update(++done),
    );
    bar?.stop();
    const reports: ConfigLinkHealthOutput[] = [];
    for (const name of chosen) {
      const report = await services.linkHealth.ofConfig(name);
      if (report !== null) reports.push(report);
    }
    return reports;
  } finally {
    await services.linkHealth.checker.stop();
    await services.outbound.close();
    await repository.close();
  }
}

/** The settings a run reads from the environment, as the server reads them. */
function settingsOf(io: CliIo) {
  let settings;
  try {
    settings = loadSettings(io.env, []);
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message : String(error),
    );
  }
  if (settings === 'help') throw new UsageError('unexpected help');
  return {
    outboundAllow: settings.outboundAllow,
    outboundContact: settings.outboundContact,
    linkCheckEvery: settings.linkCheckEvery,
    linkCheckConfirm: settings.linkCheckConfirm,
  };
}

/** A config's report in words: its counts, then each link that is not plainly ok. */
function describe(report: ConfigLinkHealthOutput): string {
  const counts = Object.entries(report.counts)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  const lines = [`${report.name}: ${report.links.length} links (${counts})`];
  for (const link of report.links) {
    const failing =
      link.failingSince === null
        ? ''
        : ` — failing since ${link.failingSince} (${link.failures}×, not yet confirmed)`;
    if (link.state === 'ok' && failing === '') continue;
    if (link.state === 'unchecked' && link.reason === 'not an http(s) URL')
      continue;
    const evidence = [
      link.reason,
      link.state === 'redirected' ? `now at ${link.finalUrl ?? '?'}` : null,
    ]
      .filter((part) => part !== null)
      .join('; ');
    lines.push(
      `  ${link.state.padEnd(11)} ${link.id}  ${link.url}${evidence === '' ? '' : `  (${evidence})`}${failing}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
