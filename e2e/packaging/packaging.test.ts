/**
 * The packages as a stranger gets them (issue 11, item 1): `npm pack` of shared, server and web-client,
 * then two fresh projects outside the workspace, installed from the tarballs and the registry:
 *
 * - a browser project with `@linkconfig/shared` and `@linkconfig/web-client` only (no server package,
 *   none of its dependencies), whose code must type-check with the libraries' declarations checked
 *   (`skipLibCheck: false`) and whose mistakes must be type errors;
 * - a server project with `@linkconfig/server`, whose `linkconfig-server` command serves a temporary
 *   SQLite file on a free port, and against which the browser project's code runs in Node.
 *
 * Progress goes to stderr. `PACKAGING_KEEP=1` keeps the temporary folder; `PACKAGING_BUILD_NATIVE=1`
 * compiles better-sqlite3 from source instead of reusing the workspace's build (native-prebuild.ts).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './consumer/src/main.js';
import { progress, run } from './commands.js';
import {
  brokenSourceMapLinks,
  compiledWithoutSource,
  declarationImports,
  listFiles,
  packageOf,
} from './installed-package.js';
import {
  LOCAL_PREBUILDS_VARIABLE,
  writeLocalPrebuild,
} from './native-prebuild.js';
import {
  documentedAllowScripts,
  documentedLib,
  packCommands,
} from './install-doc.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const CONSUMER = join(import.meta.dirname, 'consumer');
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const PACKAGES = ['shared', 'server', 'web-client'] as const;
const VERSION = '0.2.0';

/** The server project's package.json: install scripts reviewed as install.md says (`allowScripts`). */
const SERVER_PROJECT = {
  name: 'linkconfig-packaging-server',
  private: true,
  type: 'module',
  allowScripts: documentedAllowScripts(),
};
const BROWSER_PROJECT = {
  name: 'linkconfig-packaging-browser',
  private: true,
  type: 'module',
};

let work = '';
let browser = '';
let serverProject = '';
const tarball: Record<(typeof PACKAGES)[number], string> = {
  shared: '',
  server: '',
  'web-client': '',
};
let server: ChildProcess | undefined;

/** `npm install` into a fresh project, quiet unless it fails. */
async function npmInstall(
  dir: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<void> {
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...args],
    { cwd: dir, env },
  );
}

/** Runs the workspace's TypeScript compiler in the browser project; answers its exit code and output. */
async function tsc(project: string): Promise<{ code: number; output: string }> {
  const result = await run(
    process.execPath,
    [TSC, '-p', project, '--pretty', 'false'],
    { cwd: browser, allowFailure: true },
  );
  return { code: result.code, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'linkconfig-packaging-'));
  progress(`working in ${work}`);

  // Packed as install.md says, into a folder that does not exist yet (its commands make it).
  const tarballs = join(work, 'tarballs');
  progress('npm pack as install.md says (prepack builds each package first)');
  for (const line of packCommands(tarballs))
    await run('sh', ['-c', line], { cwd: REPO_ROOT });
  for (const pkg of PACKAGES) {
    const file = join(tarballs, `linkconfig-${pkg}-${VERSION}.tgz`);
    expect(existsSync(file), `${file} was packed`).toBe(true);
    tarball[pkg] = file;
  }

  browser = join(work, 'browser');
  mkdirSync(browser);
  writeFileSync(
    join(browser, 'package.json'),
    JSON.stringify(BROWSER_PROJECT, null, 2),
  );
  for (const entry of ['src', 'run.mjs', 'tsconfig.json', 'tsconfig.node.json'])
    cpSync(join(CONSUMER, entry), join(browser, entry), { recursive: true });

  serverProject = join(work, 'server');
  mkdirSync(serverProject);
  writeFileSync(
    join(serverProject, 'package.json'),
    JSON.stringify(SERVER_PROJECT, null, 2),
  );
  const nativeEnv: Record<string, string> = {};
  if (process.env['PACKAGING_BUILD_NATIVE'] === '1') {
    progress(
      'better-sqlite3 will be compiled from source (PACKAGING_BUILD_NATIVE=1)',
    );
  } else {
    const prebuilds = join(work, 'prebuilds');
    const reuse = await writeLocalPrebuild({
      repoRoot: REPO_ROOT,
      dir: prebuilds,
    }).catch((error: unknown) => ({
      version: undefined,
      skipped: error instanceof Error ? error.message : String(error),
    }));
    if (reuse.version === undefined) {
      progress(
        `better-sqlite3 will be compiled from source (${reuse.skipped})`,
      );
    } else {
      progress(
        `better-sqlite3 ${reuse.version}: the workspace's build is offered as a local prebuild`,
      );
      nativeEnv[LOCAL_PREBUILDS_VARIABLE] = prebuilds;
    }
  }

  progress('installing both projects from the tarballs and the registry');
  await Promise.all([
    npmInstall(browser, [
      tarball.shared,
      tarball['web-client'],
      'idb',
      'fake-indexeddb',
    ]).then(() => progress('browser project installed')),
    npmInstall(serverProject, [tarball.shared, tarball.server], nativeEnv).then(
      () => {
        const compiled = existsSync(
          join(
            serverProject,
            'node_modules/better-sqlite3/build/Release/obj.target',
          ),
        );
        progress(
          `server project installed (better-sqlite3 ${compiled ? 'compiled from source' : 'from the local prebuild'})`,
        );
      },
    ),
  ]);
});

afterAll(() => {
  if (server?.exitCode === null) server.kill('SIGKILL');
  if (work === '') return;
  if (process.env['PACKAGING_KEEP'] === '1') progress(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
});

describe('what install.md says', () => {
  it('names in allowScripts every dependency of the server with an install script', () => {
    const lock = JSON.parse(
      readFileSync(join(serverProject, 'package-lock.json'), 'utf8'),
    ) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const scripted = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 13));
    expect([...new Set(scripted)].sort()).toEqual(
      Object.keys(documentedAllowScripts()).sort(),
    );
  });

  it('gives the lib the consumer compiles with in Node and in a browser', () => {
    for (const config of ['tsconfig.json', 'tsconfig.node.json']) {
      const text = readFileSync(join(CONSUMER, config), 'utf8');
      const lib = /"lib":\s*(\[[^\]]*\])/.exec(text)?.[1] ?? '[]';
      expect(JSON.parse(lib), config).toEqual(documentedLib());
    }
  });

  it.each(PACKAGES)('%s names in sideEffects only files it ships', (pkg) => {
    const dir = join(
      pkg === 'server' ? serverProject : browser,
      'node_modules/@linkconfig',
      pkg,
    );
    const { sideEffects } = JSON.parse(
      readFileSync(join(dir, 'package.json'), 'utf8'),
    ) as { sideEffects?: boolean | string[] };
    const named = Array.isArray(sideEffects) ? sideEffects : [];
    expect(named.filter((file) => !existsSync(join(dir, file)))).toEqual([]);
  });
});

describe('the packed packages', () => {
  const installed = (project: () => string, pkg: string) => () =>
    join(project(), 'node_modules/@linkconfig', pkg);
  const dirs = {
    shared: installed(() => browser, 'shared'),
    'web-client': installed(() => browser, 'web-client'),
    server: installed(() => serverProject, 'server'),
  };

  it.each(PACKAGES)(
    '%s ships its licence and metadata, and no tests',
    (pkg) => {
      const dir = dirs[pkg]();
      const manifest = JSON.parse(
        readFileSync(join(dir, 'package.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(manifest).toMatchObject({
        name: `@linkconfig/${pkg}`,
        version: VERSION,
        license: 'MIT',
        repository: { type: 'git', directory: pkg },
        engines: { node: '>=20' },
      });
      expect(manifest['private']).toBeUndefined();
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(
        /^MIT License/,
      );
      const files = listFiles(dir);
      expect(
        files.filter((f) =>
          /\.(?:test|contract)\.ts$|\/test-[^/]*\.ts$/.test(f),
        ),
      ).toEqual([]);
      expect(files.filter((f) => f.endsWith('.tsbuildinfo'))).toEqual([]);
    },
  );

  it.each(PACKAGES)(
    '%s has no source map pointing at a file it lacks, and no compiled file without its source',
    (pkg) => {
      const dir = dirs[pkg]();
      expect(listFiles(dir).some((f) => f.endsWith('.map'))).toBe(true);
      expect(brokenSourceMapLinks(dir)).toEqual([]);
      expect(compiledWithoutSource(dir)).toEqual([]);
    },
  );

  it('web-client ships one declaration file that imports only its own dependencies', () => {
    const dir = dirs['web-client']();
    expect(listFiles(dir).filter((f) => f.endsWith('.d.ts'))).toEqual([
      'dist/index.d.ts',
    ]);
    const manifest = JSON.parse(
      readFileSync(join(dir, 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    const imported = declarationImports(join(dir, 'dist/index.d.ts'));
    expect(imported.length).toBeGreaterThan(0);
    for (const specifier of imported)
      expect(
        Object.keys(manifest.dependencies),
        `dist/index.d.ts imports ${specifier}`,
      ).toContain(packageOf(specifier));
    // The browser project got none of the server's packages.
    const modules = readdirSync(join(browser, 'node_modules'));
    for (const name of [
      'better-sqlite3',
      'pg',
      'hono',
      'pino',
      'trpc-to-openapi',
    ])
      expect(modules, `${name} is not installed`).not.toContain(name);
    expect(readdirSync(join(browser, 'node_modules/@linkconfig'))).toEqual([
      'shared',
      'web-client',
    ]);
  });
});

describe('a browser project on the installed packages', () => {
  it('type-checks with skipLibCheck false, under bundler and Node resolution', async () => {
    progress('type-checking the consumer (bundler, then NodeNext with emit)');
    const bundler = await tsc('tsconfig.json');
    expect(bundler.output).toBe('');
    expect(bundler.code).toBe(0);
    const node = await tsc('tsconfig.node.json');
    expect(node.output).toBe('');
    expect(node.code).toBe(0);
    expect(existsSync(join(browser, 'dist/main.js'))).toBe(true);
  });

  it('gets a type error, with the expected code, for each mistake', async () => {
    // The same file with each `@ts-expect-error TSnnnn` turned into a plain comment: line numbers stay,
    // and every error must now be reported right below its comment.
    const source = readFileSync(
      join(browser, 'src/must-not-compile.ts'),
      'utf8',
    );
    const lines = source.split('\n');
    const expected: string[] = [];
    const plain = lines.map((line, index) => {
      const code = /\/\/ @ts-expect-error (TS\d+)/.exec(line)?.[1];
      if (code === undefined) return line;
      expected.push(`${index + 2}:${code}`);
      return line.replace('@ts-expect-error', 'expected:');
    });
    expect(expected.length).toBeGreaterThanOrEqual(5);
    mkdirSync(join(browser, 'mistakes'));
    writeFileSync(
      join(browser, 'mistakes/must-not-compile.ts'),
      plain.join('\n'),
    );
    writeFileSync(
      join(browser, 'tsconfig.mistakes.json'),
      // The libraries' declarations were checked by the test above; here only the errors matter.
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { skipLibCheck: true },
        include: ['mistakes'],
      }),
    );
    const { code, output } = await tsc('tsconfig.mistakes.json');
    expect(code).not.toBe(0);
    const reported = [
      ...output.matchAll(/must-not-compile\.ts\((\d+),\d+\): error (TS\d+)/g),
    ].map((m) => `${m[1]}:${m[2]}`);
    expect(reported.sort()).toEqual(expected.sort());
  });
});

describe('the server package', () => {
  const bin = () => join(serverProject, 'node_modules/.bin/linkconfig-server');

  it('prints its options with --help', async () => {
    const { stdout } = await run(bin(), ['--help'], { cwd: serverProject });
    expect(stdout).toMatch(/--database-url/);
    expect(stdout).toMatch(/^Usage: linkconfig-server /);
  });

  it('starts from its bin without the web page, and the browser project works against it', async () => {
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    server = spawn(
      bin(),
      [
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--database-url',
        join(dataDir, 'test.db'),
      ],
      {
        cwd: serverProject,
        env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const child = server;
    progress(`started linkconfig-server (pid ${child.pid})`);
    const exited = new Promise<number | null>((done) =>
      child.once('exit', (code) => done(code)),
    );
    let page: unknown;
    const url = await new Promise<string>((done, fail) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        const entry = JSON.parse(line) as {
          msg?: string;
          url?: string;
          page?: unknown;
        };
        if (entry.msg === 'listening' && entry.url !== undefined) {
          page = entry.page;
          done(entry.url);
        }
      });
      void exited.then((code) =>
        fail(new Error(`the server exited (${code})`)),
      );
    });
    progress(`the server listens on ${url}`);

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // No page is installed with the server package: `/` says where the API and its docs are.
    expect(page).toBeNull();
    const root = await fetch(`${url}/`);
    expect(await root.json()).toMatchObject({ docs: '/docs' });

    progress('running the compiled consumer in Node against it');
    const { stdout } = await run(process.execPath, ['run.mjs', url], {
      cwd: browser,
    });
    const report = JSON.parse(stdout) as RunReport;
    expect(report).toEqual({
      names: ['demo', 'packaged'],
      remoteUrl: 'https://example.com/docs',
      clientUrl: 'https://example.com/docs',
      queryIds: ['docs', 'home'],
      hybridStored: true,
      hybridPending: 0,
      rejected: { name: 'RemoteStoreError', status: 400, configName: 'broken' },
      sanitized: 'about:blank',
      clientMissing: 404,
    });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    progress('the server stopped');
  });
});
