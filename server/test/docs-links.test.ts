/**
 * A clone of the repository holds every document it links to. Every Markdown link must lead to a file or
 * folder inside the repository (or be a web address), and a `#fragment` to a heading of the target;
 * source files never point at documents outside the repository, and their citations of `docs/*.md`
 * (with `§13`, `P4`, `D2` or a `#fragment`) name sections that exist.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { Lexer, marked } from 'marked';
import type { Token, Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Folders that hold installed or generated files, never documents of the repository. */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'dist-app',
  'test-results',
  'playwright-report',
  'coverage',
  '.git',
]);

const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs']);

/** Every file under `dir` (repository-relative, `/`-separated), skipping {@link SKIPPED} folders. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

const ALL_FILES = filesUnder('');
const MARKDOWN = ALL_FILES.filter((file) => file.endsWith('.md'));
const SOURCES = ALL_FILES.filter((file) =>
  SOURCE_EXTENSIONS.has(extname(file)),
);

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The text a heading shows (code spans without their backticks, entities decoded), as GitHub slugs it. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === 'html') return '';
      if ('tokens' in token && Array.isArray(token.tokens)) {
        return plainText(token.tokens as Token[]);
      }
      return 'text' in token && typeof token.text === 'string'
        ? token.text
        : '';
    })
    .join('')
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'");
}

/** One Markdown file: its link targets and the texts and anchors of its headings. */
interface MarkdownFile {
  readonly links: readonly string[];
  readonly headings: readonly string[];
  readonly anchors: ReadonlySet<string>;
}

const parsed = new Map<string, MarkdownFile>();

/** Parses a Markdown file once (links inside code blocks and code spans are not links). */
function markdown(file: string): MarkdownFile {
  const known = parsed.get(file);
  if (known !== undefined) return known;
  const tokens = Lexer.lex(read(file));
  const links: string[] = [];
  const headings: string[] = [];
  void marked.walkTokens(tokens, (token) => {
    if (token.type === 'link' || token.type === 'image') {
      links.push((token as Tokens.Link | Tokens.Image).href);
    } else if (token.type === 'heading') {
      headings.push(plainText((token as Tokens.Heading).tokens));
    }
  });
  const slugger = new GithubSlugger();
  const result = {
    links,
    headings,
    anchors: new Set(headings.map((heading) => slugger.slug(heading))),
  };
  parsed.set(file, result);
  return result;
}

/** Whether `path` (absolute) lies inside the repository. */
const inside = (path: string): boolean =>
  path === ROOT.replace(/[\\/]$/, '') || path.startsWith(ROOT);

/** What is wrong with one link of a Markdown file, or `null` when it leads somewhere that exists. */
function linkProblem(file: string, href: string): string | null {
  if (/^(https?:|mailto:)/i.test(href)) return null;
  if (/^[a-z][a-z\d+.-]*:/i.test(href)) return 'a scheme other than http(s)';
  const [pathPart = '', fragment] = href.split('#', 2);
  const path = decodeURIComponent(pathPart);
  if (path.startsWith('/')) return 'an absolute path';
  const target =
    path === '' ? join(ROOT, file) : resolve(join(ROOT, dirname(file)), path);
  if (!inside(target)) return 'a path outside the repository';
  let isFile: boolean;
  try {
    isFile = statSync(target).isFile();
  } catch {
    return 'a file that does not exist';
  }
  if (fragment === undefined || fragment === '') return null;
  const targetFile = relative(ROOT, target).split(sep).join('/');
  if (!isFile || !targetFile.endsWith('.md')) return null;
  return markdown(targetFile).anchors.has(fragment)
    ? null
    : `no heading #${fragment} in ${targetFile}`;
}

/** Whether a document has a heading that starts with `label` (`13.`, `8.2 `, `P4.`, `D2.`). */
function hasSection(doc: string, label: string): boolean {
  return markdown(doc).headings.some(
    (heading) =>
      heading.startsWith(`${label}.`) || heading.startsWith(`${label} `),
  );
}

/**
 * What is wrong with the `docs/…` citations of a source file: a document that does not exist, or a
 * section (`§13`, `P4`, `D2`, `#anchor`) it does not have. A citation's sections are read up to the end
 * of its parenthesis or line, or the next citation: `(docs/expression-reference.md §8.3 / D2)`.
 */
function citationProblems(file: string): string[] {
  const problems: string[] = [];
  const citation = /\bdocs\/([\w-]+\.md)(#[\w-]+)?((?:(?!docs\/)[^)\n])*)/g;
  for (const match of read(file).matchAll(citation)) {
    const doc = `docs/${match[1] ?? ''}`;
    if (!MARKDOWN.includes(doc)) {
      problems.push(`${file}: ${doc} does not exist`);
      continue;
    }
    const fragment = match[2]?.slice(1);
    if (fragment !== undefined && !markdown(doc).anchors.has(fragment)) {
      problems.push(`${file}: no heading #${fragment} in ${doc}`);
    }
    const rest = match[3] ?? '';
    for (const section of rest.matchAll(/§(\d+(?:\.\d+)?)|\b([PD]\d+)\b/g)) {
      const label = section[1] ?? section[2] ?? '';
      if (!hasSection(doc, label)) {
        problems.push(`${file}: ${doc} has no section ${section[0]}`);
      }
    }
  }
  return problems;
}

describe('links in the Markdown files', () => {
  it('finds the documents of the repository', () => {
    expect(MARKDOWN).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/README.md',
        'docs/expression-reference.md',
        'web-client/README.md',
      ]),
    );
  });

  it.each(MARKDOWN)(
    '%s links only to files of the repository that exist',
    (file) => {
      const problems = markdown(file)
        .links.map((href) => [href, linkProblem(file, href)] as const)
        .filter(([, problem]) => problem !== null)
        .map(([href, problem]) => `${href}: ${problem ?? ''}`);
      expect(problems).toEqual([]);
    },
  );

  it('notices a dead link, a path outside the repository and a missing heading', () => {
    // Built from parts, so that the citation check below does not read them as citations of this file.
    const docs = (name: string) => ['docs', name].join('/');
    expect(linkProblem('README.md', docs('nothing-here.md'))).toBe(
      'a file that does not exist',
    );
    expect(linkProblem('README.md', '../outside/doc.md')).toBe(
      'a path outside the repository',
    );
    expect(linkProblem('README.md', docs('http-api.md#no-such-heading'))).toBe(
      'no heading #no-such-heading in docs/http-api.md',
    );
    expect(linkProblem('README.md', 'docs/http-api.md#limits')).toBeNull();
  });
});

describe('documents cited by source files', () => {
  // Spelled in two parts so that this file does not mention what it looks for.
  const outside = ['shared', 'docs'].join('/');

  // The reference documents the project was first described in live outside the repository; their
  // names (spelled in parts, for the same reason) must not be cited as if a reader had them.
  const outsideNames = [
    ['service', 'contract'].join(' '),
    ['service', 'contract.md'].join('-'),
    ['reliability', 'md'].join('.'),
    ['conventions', 'md'].join('.'),
    ['conventions', '§'].join(' '),
    ['expression', 'language.md'].join('-'),
  ];

  it.each([...SOURCES, ...MARKDOWN])(
    '%s points at no document outside the repository',
    (file) => {
      const text = read(file);
      expect(text).not.toContain(outside);
      for (const name of outsideNames) expect(text).not.toContain(name);
    },
  );

  it('finds citations of docs/ sections in the sources', () => {
    const citing = SOURCES.filter((file) =>
      read(file).includes('docs/expression-reference.md §'),
    );
    expect(citing.length).toBeGreaterThan(20);
  });

  it('cites only documents and sections that exist', () => {
    expect(SOURCES.flatMap(citationProblems)).toEqual([]);
  });
});
