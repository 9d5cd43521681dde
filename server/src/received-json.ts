/**
 * The JSON a request body carried: the parsed value and the text it was parsed from. It travels as a value
 * from the body reader (`http/middleware/json-body.ts`) to the service that stores it (`ConfigService.put`), so a
 * config is kept exactly as received (key order, unknown keys, spacing) and never serialized again.
 */
export class ReceivedJson {
  constructor(
    readonly value: unknown,
    readonly text: string,
    /**
     * How deeply the value nests, when measured on the text as it was read (`inspectJsonText`), so the
     * config check compares it instead of walking the value again; absent, the check walks the value.
     */
    readonly depth?: number,
  ) {}
}
