/**
 * What docs/install.md tells a stranger to do, read from the document itself, so the packaging test
 * follows the document rather than a copy of it: the commands that pack the tarballs, the `allowScripts`
 * a server project needs, and the `lib` a TypeScript project needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer } from 'marked';
import type { Tokens } from 'marked';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'install.md');

/** The code blocks of the document, with their language. */
function codeBlocks(): { lang: string; text: string }[] {
  const blocks: { lang: string; text: string }[] = [];
  const visit = (tokens: readonly Tokens.Generic[]): void => {
    for (const token of tokens) {
      if (token.type === 'code') {
        const code = token as Tokens.Code;
        blocks.push({ lang: code.lang ?? '', text: code.text });
      }
      if (Array.isArray(token['tokens']))
        visit(token['tokens'] as Tokens.Generic[]);
      if (Array.isArray(token['items']))
        visit(token['items'] as Tokens.Generic[]);
    }
  };
  visit(Lexer.lex(readFileSync(DOC, 'utf8')) as Tokens.Generic[]);
  return blocks;
}

/** The folder the document packs into, relative to the clone. */
export const DOCUMENTED_TARBALLS = '../linkconfig-tarballs';

/** The shell lines that pack the packages, with the tarball folder replaced by `destination`. */
export function packCommands(destination: string): string[] {
  const block = codeBlocks().find(
    ({ lang, text }) => lang === 'sh' && text.includes('npm pack'),
  );
  if (block === undefined) throw new Error('install.md shows no npm pack');
  return block.text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replaceAll(DOCUMENTED_TARBALLS, destination));
}

/** The `allowScripts` the document gives a server project. */
export function documentedAllowScripts(): Record<string, boolean> {
  const block = codeBlocks().find(
    ({ lang, text }) => lang === 'json' && text.includes('allowScripts'),
  );
  if (block === undefined) throw new Error('install.md shows no allowScripts');
  return (JSON.parse(block.text) as { allowScripts: Record<string, boolean> })
    .allowScripts;
}

/** The `lib` of the document's TypeScript settings. */
export function documentedLib(): string[] {
  const block = codeBlocks().find(
    ({ lang, text }) => lang === 'jsonc' && text.includes('"lib"'),
  );
  const lib = /"lib":\s*(\[[^\]]*\])/.exec(block?.text ?? '')?.[1];
  if (lib === undefined) throw new Error('install.md shows no lib');
  return JSON.parse(lib) as string[];
}
