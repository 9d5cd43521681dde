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
  validatingLinkConfig,
} from './validate-config.js';
export type { ConfigValidation, ValidateOptions } from './validate-config.js';
export {
  findJsonInfidelity,
  inspectJsonText,
  inspectJsonTextInSlices,
} from './json-fidelity.js';
export type { JsonInfidelity, JsonTextFacts } from './json-fidelity.js';
export {
  CherryPickInputSchema,
  CherryPickOutputSchema,
  ConfigNameInputSchema,
  ConfigNameSchema,
  compareNames,
  DOCUMENTED_SCHEMAS,
  ErrorBodySchema,
  ExpressionSchema,
  GetConfigInputSchema,
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
  GetConfigInput,
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
  ImportCandidateSchema,
  ImportModeSchema,
  ImportNoteSchema,
  ImportReportSchema,
  ParsedImportSchema,
  SkippedLinkSchema,
  SourcePositionSchema,
  TRANSFER_FORMATS,
  TransferFormatSchema,
} from './transfer.js';
export type {
  ImportCandidate,
  ImportMode,
  ImportNote,
  ImportReport,
  ParsedImport,
  ReadImportResult,
  SkippedLink,
  SourcePosition,
  TransferFormat,
} from './transfer.js';
export {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupConfigSchema,
  BackupEndSchema,
  BackupHeaderSchema,
  BackupKeySchema,
  BackupLinkSchema,
  BackupHookSchema,
  BackupRecordSchema,
  BackupRevisionSchema,
} from './backup.js';
export type {
  BackupConfig,
  BackupEnd,
  BackupHeader,
  BackupKey,
  BackupLink,
  BackupHook,
  BackupRecord,
  BackupRevision,
} from './backup.js';
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
export {
  AccessKeySchema,
  AccessOutputSchema,
  CreateKeyInputSchema,
  CreateKeyOutputSchema,
  KEY_PATTERNS_MAX,
  KEY_SCOPES,
  KeyIdInputSchema,
  KeyScopeSchema,
  ListKeysOutputSchema,
  NamePatternSchema,
  scopeCovers,
} from './keys.js';
export type {
  AccessKey,
  AccessOutput,
  CreateKeyInput,
  CreateKeyOutput,
  KeyIdInput,
  KeyScope,
  ListKeysOutput,
} from './keys.js';
export {
  AuditEntrySchema,
  AuditInputSchema,
  AuditOutputSchema,
  ChangeSummarySchema,
  ConfigDiffSchema,
  DiffInputSchema,
  DiffOutputSchema,
  HISTORY_LIMITS,
  HistoryEntrySchema,
  HistoryInputSchema,
  HistoryOutputSchema,
  ListConfigsInputSchema,
  REVISION_OPS,
  RestoreInputSchema,
  RestoreOutputSchema,
  RevisionInputSchema,
  RevisionMetaSchema,
  RevisionOpSchema,
  RevisionOutputSchema,
} from './history.js';
export type {
  AuditEntry,
  AuditInput,
  AuditOutput,
  ChangeSummary,
  ConfigDiff,
  DiffInput,
  DiffOutput,
  HistoryEntry,
  HistoryInput,
  HistoryOutput,
  ListConfigsInput,
  RestoreInput,
  RestoreOutput,
  RevisionInput,
  RevisionOp,
  RevisionOutput,
} from './history.js';
export {
  CheckLinksInputSchema,
  CheckLinksOutputSchema,
  ConfigLinkHealthInputSchema,
  ConfigLinkHealthOutputSchema,
  FAILED_LINK_STATES,
  isConfirmedFailure,
  LINK_HEALTH_LIMITS,
  LINK_STATES,
  LinkEventSchema,
  LinkHealthEntrySchema,
  LinkHealthRecordSchema,
  LinksHealthInputSchema,
  LinksHealthItemSchema,
  LinksHealthOutputSchema,
  LinkStateSchema,
} from './link-health.js';
export type {
  CheckLinksOutput,
  ConfigLinkHealthOutput,
  LinkEvent,
  LinkHealthEntry,
  LinkHealthRecord,
  LinksHealthInput,
  LinksHealthItem,
  LinksHealthOutput,
  LinkState,
} from './link-health.js';
export {
  CreateHookInputSchema,
  CreateHookOutputSchema,
  HOOK_EVENTS,
  HOOK_LOG_LIMITS,
  HOOK_URL_MAX,
  HookDeliverySchema,
  HookEventSchema,
  HookIdInputSchema,
  HookLogInputSchema,
  HookLogOutputSchema,
  HookPayloadSchema,
  HookSchema,
  ListHooksOutputSchema,
} from './hooks.js';
export type {
  CreateHookInput,
  CreateHookOutput,
  Hook,
  HookDelivery,
  HookEvent,
  HookIdInput,
  HookLogInput,
  HookLogOutput,
  HookPayload,
  ListHooksOutput,
} from './hooks.js';
export {
  PUBLISH_ORIGINS_MAX,
  PublishInputSchema,
  PublishOriginsSchema,
  PublishRecordSchema,
  SiteOriginSchema,
  UnpublishOutputSchema,
} from './publish.js';
export type {
  PublishInput,
  PublishRecord,
  UnpublishOutput,
} from './publish.js';
export {
  ExpressionChangeSchema,
  MacroOutcomeSchema,
  StoredTagSchema,
  TagNameSchema,
  TagRenamePreviewSchema,
  TagRenameInputSchema,
  TagRenameRequestSchema,
  TagRenameResultSchema,
} from './tags.js';
export type {
  ExpressionChange,
  MacroOutcome,
  TagRenamePreview,
  TagRenameInput,
  TagRenameRequest,
  TagRenameResult,
} from './tags.js';
