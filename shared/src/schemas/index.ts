export { LinkSchema, ResolvedLinkSchema } from './link.js';
export type { Link, ResolvedLink } from './link.js';
export {
  ConfigEntrySchema,
  LinkConfigSchema,
  MacroSchema,
  SearchPatternOptionsSchema,
  SearchPatternSchema,
  SettingsSchema,
  TimestampSchema,
} from './link-config.js';
export type {
  ConfigEntry,
  LinkConfig,
  Macro,
  SearchPattern,
  Settings,
} from './link-config.js';
export {
  StoredLinkConfigSchema,
  formatPath,
  nestedDeeper,
  validateLinkConfig,
} from './validate-config.js';
export type { ConfigValidation, ValidateOptions } from './validate-config.js';
export {
  findJsonInfidelity,
  findJsonInfidelityInSlices,
} from './json-fidelity.js';
export type { JsonInfidelity } from './json-fidelity.js';
export {
  CherryPickInputSchema,
  CherryPickOutputSchema,
  ConfigNameInputSchema,
  ConfigNameSchema,
  compareNames,
  DOCUMENTED_SCHEMAS,
  ErrorBodySchema,
  ExpressionSchema,
  GetConfigOutputSchema,
  InlineConfigSchema,
  LIMITS,
  ListConfigsOutputSchema,
  IfMatchSchema,
  PutConfigInputSchema,
  PutConfigOutputSchema,
  QueryInputSchema,
  QueryOutputSchema,
  RemoveConfigInputSchema,
  SEARCH_FIELDS,
  SearchInputSchema,
  SearchOutputSchema,
  SearchResultItemSchema,
} from './api.js';
export type {
  CherryPickInput,
  CherryPickOutput,
  ConfigNameInput,
  ErrorBody,
  PutConfigInput,
  PutConfigOutput,
  QueryInput,
  QueryOutput,
  RemoveConfigInput,
  SearchField,
  SearchInput,
  SearchInputRaw,
  SearchOutput,
} from './api.js';
export {
  CONFIG_DIAGNOSTIC_CODES,
  CheckExpressionInputSchema,
  CheckExpressionOutputSchema,
  ConfigDiagnosticCodeSchema,
  ConfigDiagnosticSchema,
  DIAGNOSTIC_SEVERITIES,
  DiagnosticSchema,
  DiagnosticSeveritySchema,
  EXPRESSION_DIAGNOSTIC_CODES,
  ExpressionDiagnosticCodeSchema,
} from './check.js';
export type {
  CheckExpressionInput,
  CheckExpressionOutput,
  ConfigDiagnostic,
  ConfigDiagnosticCode,
  Diagnostic,
  DiagnosticSeverity,
  ExpressionDiagnosticCode,
} from './check.js';
export {
  CHANGE_OPS,
  ChangeEventSchema,
  ChangeMessageSchema,
  ChangesInputSchema,
  EventIdSchema,
} from './changes.js';
export type {
  ChangeEvent,
  ChangeMessage,
  ChangeOp,
  ChangesInput,
} from './changes.js';
export { AuthorSchema } from './author.js';
export type { Author } from './author.js';
export {
  ConflictResolutionSchema,
  MergeConflictSchema,
  MergePatchSchema,
  MergePathSchema,
  PatchConfigInputSchema,
} from './merge.js';
export type {
  ConflictResolution,
  MergeConflict,
  MergePatch,
  MergePath,
  PatchConfigInput,
} from './merge.js';
