/** Reads documents of `docs/` for tests that hold them to the code: a section's text and its tables' rows. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Lexer } from 'marked';
import type { Token, Tokens } from 'marked';

/** The tokens of a document of `docs/`. */
function tokensOf(name: string): Token[] {
  const path = fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
  return Lexer.lex(readFileSync(path, 'utf8'));
}

/** The tokens under the heading `heading` (to the next heading of its depth or higher). */
export function section(name: string, heading: string): Token[] {
  const tokens = tokensOf(name);
  const start = tokens.findIndex(
    (t) => t.type === 'heading' && (t as Tokens.Heading).text === heading,
  );
  if (start === -1) throw new Error(`${name} has no heading "${heading}"`);
  const depth = (tokens[start] as Tokens.Heading).depth;
  const end = tokens.findIndex(
    (t, i) =>
      i > start && t.type === 'heading' && (t as Tokens.Heading).depth <= depth,
  );
  return tokens.slice(start + 1, end === -1 ? undefined : end);
}

/** The raw text of the tokens (paragraphs and lists as written). */
export const textOf = (tokens: readonly Token[]): string =>
  tokens.map((t) => t.raw).join('');

/** The rows of the first table among the tokens whose header starts with `firstColumn`, as cell texts. */
export function tableRows(
  tokens: readonly Token[],
  firstColumn: string,
): string[][] {
  const table = tokens.find(
    (t): t is Tokens.Table =>
      t.type === 'table' && (t as Tokens.Table).header[0]?.text === firstColumn,
  );
  if (table === undefined) throw new Error(`no table headed "${firstColumn}"`);
  return table.rows.map((row) => row.map((cell) => cell.text));
}

/** The `code spans` of a text, without their backticks. */
export const codeSpans = (text: string): string[] =>
  [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
