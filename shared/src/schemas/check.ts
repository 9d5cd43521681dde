/**
 * Contracts of the expression check (`POST /expressions/check`, tRPC `expressions.check`): what a caller
 * sends, and the diagnostics that come back. Expressions never fail to resolve, so a typo and "no match"
 * look alike; diagnostics tell them apart without changing any result (docs/expressions.md).
 */
import { z } from 'zod';
import {
  ConfigNameSchema,
  ExpressionSchema,
  InlineConfigSchema,
  QueryInputSchema,
} from './api.js';

/** How serious a diagnostic is. */
export const DIAGNOSTIC_SEVERITIES = ['error', 'warning', 'info'] as const;

/**
 * `error`: part or all of the expression is ignored; `warning`: something that is probably a mistake
 * selects nothing or has no effect; `info`: a rule of the language that may surprise.
 */
export const DiagnosticSeveritySchema = z.enum(DIAGNOSTIC_SEVERITIES).meta({
  description:
    '`error`: part or all of the expression is ignored. `warning`: probably a mistake; it selects nothing or has no effect. `info`: a language rule that may surprise.',
});
/** How serious a diagnostic is. */
export type DiagnosticSeverity = z.infer<typeof DiagnosticSeveritySchema>;

/** Stable machine-readable codes of expression diagnostics (the message is for people and may change). */
export const EXPRESSION_DIAGNOSTIC_CODES = [
  'empty-expression',
  'unknown-macro',
  'macro-cycle',
  'expansion-too-long',
  'token-limit',
  'ignored-character',
  'unknown-id',
  'unknown-tag',
  'hyphenated-name',
  'placeholder',
  'unknown-search-pattern',
  'unsafe-search-pattern',
  'search-pattern-limit',
  'unknown-protocol',
  'invalid-protocol-arguments',
  'unknown-refiner',
  'invalid-refiner-argument',
  'misplaced-refiner',
  'refiner-limit',
  'empty-parentheses',
  'unclosed-parenthesis',
  'depth-limit',
  'trailing-operator',
  'missing-operand',
  'doubled-operator',
  'leading-operator',
  'parsing-stops',
  'too-many-diagnostics',
] as const;

/** The code of an expression diagnostic. */
export const ExpressionDiagnosticCodeSchema = z.enum(
  EXPRESSION_DIAGNOSTIC_CODES,
);
/** The code of an expression diagnostic. */
export type ExpressionDiagnosticCode = z.infer<
  typeof ExpressionDiagnosticCodeSchema
>;

/** Stable machine-readable codes of config diagnostics. */
export const CONFIG_DIAGNOSTIC_CODES = [
  'invalid-config',
  'missing-links',
  'dropped-link',
  'unreachable-id',
  'reserved-name',
  'unreachable-tag',
  'dropped-tag',
  'unreachable-macro',
  'dropped-macro',
  'unreachable-search-pattern',
  'invalid-search-pattern',
  'unsafe-search-pattern',
  'ignored-option',
  'too-many-diagnostics',
] as const;

/** The code of a config diagnostic. */
export const ConfigDiagnosticCodeSchema = z.enum(CONFIG_DIAGNOSTIC_CODES);
/** The code of a config diagnostic. */
export type ConfigDiagnosticCode = z.infer<typeof ConfigDiagnosticCodeSchema>;

const offset = z.number().int().min(0);

/**
 * One finding about an expression. `start`/`end` are offsets into the expression text as sent (UTF-16
 * code units, `end` exclusive). A problem inside a macro's text points at the `@name` that brought it in,
 * and the message names the macro.
 */
export const DiagnosticSchema = z
  .object({
    severity: DiagnosticSeveritySchema,
    code: ExpressionDiagnosticCodeSchema,
    message: z.string(),
    start: offset.meta({
      description: 'First character of the problem (UTF-16 offset).',
    }),
    end: offset.meta({
      description: 'Just past the last character (UTF-16 offset).',
    }),
  })
  .meta({
    description:
      'A finding about an expression, located by offsets into the expression text as sent.',
  });
/** One finding about an expression. */
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/**
 * One finding about a config alone. `path` leads from the config's root to the value concerned, e.g.
 * `["allLinks", "new-york"]` or `["allLinks", "home", "tags", 2]`.
 */
export const ConfigDiagnosticSchema = z
  .object({
    severity: DiagnosticSeveritySchema,
    code: ConfigDiagnosticCodeSchema,
    message: z.string(),
    path: z.array(z.union([z.string(), z.number().int().min(0)])).meta({
      description:
        'Keys (and array indexes) from the root of the config to the value concerned; empty for the config itself.',
    }),
  })
  .meta({
    description: 'A finding about a config, located by its path in the config.',
  });
/** One finding about a config. */
export type ConfigDiagnostic = z.infer<typeof ConfigDiagnosticSchema>;

/**
 * The check request. One object documents both forms: either an `expression` (checked against the stored
 * config `configName`, default `demo`, or against `configs` merged in order, exactly as `/query` resolves
 * it), or a `config` alone (its unreachable tags, ids, macro names and refused search patterns).
 */
export const CheckExpressionInputSchema = z
  .object({
    expression: ExpressionSchema.optional().meta({
      description: 'The expression to check. Give this or `config`, not both.',
    }),
    configName: ConfigNameSchema.optional().meta({
      description:
        'With `expression`: the stored config to check against (default `demo`).',
    }),
    configs: QueryInputSchema.shape.configs.meta({
      description:
        'With `expression`: names or inline configs, merged in order as `/query` merges them; wins over `configName`.',
    }),
    config: InlineConfigSchema.optional().meta({
      description:
        'A config to check on its own. Give this or `expression`, not both.',
    }),
  })
  .superRefine((input, ctx) => {
    const hasExpression = input.expression !== undefined;
    const hasConfig = input.config !== undefined;
    if (hasExpression === hasConfig) {
      ctx.addIssue({
        code: 'custom',
        message: hasExpression
          ? 'give either expression or config, not both'
          : 'give either expression or config',
      });
    } else if (
      hasConfig &&
      (input.configName !== undefined || input.configs !== undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'configName and configs go with expression, not with config',
      });
    }
  })
  .meta({
    description:
      'Either `{ expression, configName? | configs? }` to check an expression against configs, or `{ config }` to check a config alone.',
    examples: [
      { expression: '.nyc + .bridg', configName: 'demo' },
      {
        config: {
          allLinks: {
            'new-york': { url: 'https://example.com', tags: ['big-apple'] },
          },
        },
      },
    ],
  });
/** The check request: `{ expression, configName?, configs? }` or `{ config }`. */
export type CheckExpressionInput = z.infer<typeof CheckExpressionInputSchema>;

/**
 * The check answer: expression diagnostics (with offsets) for the expression form, config diagnostics
 * (with paths) for the config form; an empty list when nothing looks wrong.
 */
export const CheckExpressionOutputSchema = z.object({
  diagnostics: z.array(z.union([DiagnosticSchema, ConfigDiagnosticSchema])),
});
/** The check answer. */
export type CheckExpressionOutput = z.infer<typeof CheckExpressionOutputSchema>;
