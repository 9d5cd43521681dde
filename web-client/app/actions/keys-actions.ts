/**
 * What the signed-in key may do (`GET /access`, asked at start and after every sign-in), and the Keys
 * panel of an admin key: list the keys (never their secrets), create one (its secret shown this once,
 * with a copy button), revoke one after asking.
 */
import { CreateKeyInputSchema } from '@linkconfig/shared';
import type { CreateKeyInput, KeyScope } from '@linkconfig/shared';
import { createKey, fetchAccess, listKeys, revokeKey } from '../session/api.js';
import type { KeyFields } from '../state/keys-state.js';
import { NO_KEY_FIELDS } from '../state/keys-state.js';
import type { PageContext } from './page-context.js';

const DIALOG_ID = 'keys-dialog';

export class KeysActions {
  /** Counts the questions to the server, so only the latest answer about access is kept. */
  private asked = 0;

  constructor(private readonly page: PageContext) {}

  private get state() {
    return this.page.state.keys;
  }

  /**
   * Asks the server what the current key may do, then lists the configs again (only those it may
   * read stay). Unknown (null) while the server cannot answer.
   */
  async loadAccess(): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    const ask = ++this.asked;
    this.page.state.grant = null;
    try {
      const grant = await fetchAccess(session.caller);
      if (ask === this.asked) this.page.state.grant = grant;
    } catch {
      // Offline, unreachable or a refused key: the status says which; editing follows the refusals.
    }
    if (ask === this.asked) await this.page.refreshNames();
  }

  openDialog(): void {
    const dialog = document.getElementById(DIALOG_ID);
    if (!(dialog instanceof HTMLDialogElement) || dialog.open) return;
    this.state.created = null;
    this.state.problem = null;
    this.state.note = null;
    this.state.open = true;
    dialog.showModal();
    this.page.focus('#key-label');
    void this.refreshList();
  }

  /** The panel closed: the secret shown is gone for good. */
  closed(): void {
    this.state.open = false;
    this.state.created = null;
    this.state.note = null;
  }

  input(field: Exclude<keyof KeyFields, 'scope'>, value: string): void {
    this.state.form[field] = value;
  }

  setScope(scope: KeyScope): void {
    this.state.form.scope = scope;
  }

  async create(): Promise<void> {
    const session = this.page.session();
    if (!session || this.state.busy) return;
    const form = this.state.form;
    const input: Partial<CreateKeyInput> = {
      label: form.label,
      scope: form.scope,
      configs: form.configs
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    };
    // A date means "until the end of that day" (UTC).
    if (form.expires !== '') input.expiresAt = `${form.expires}T23:59:59Z`;
    const checked = CreateKeyInputSchema.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = String(issue?.path[0] ?? '');
      this.state.problem = `${FIELD_NAMES[field] ?? 'The key'} ${issue?.message ?? 'is not valid'}.`;
      this.page.focus(`#${FIELD_IDS[field] ?? 'key-label'}`);
      return;
    }
    if (
      checked.data.expiresAt !== undefined &&
      Date.parse(checked.data.expiresAt) <= Date.now()
    ) {
      this.state.problem = 'The expiry must be in the future.';
      this.page.focus('#key-expires');
      return;
    }
    this.state.busy = true;
    this.state.problem = null;
    try {
      this.state.created = await createKey(checked.data, session.caller);
    } catch (error) {
      this.state.problem = `Not created: ${this.page.describe(error)}`;
      return;
    } finally {
      this.state.busy = false;
    }
    this.state.form = { ...NO_KEY_FIELDS };
    this.state.note = null;
    this.page.focus('#key-secret');
    this.page.announce(
      `Created the key “${this.state.created.label}”. Copy its secret now: it will not be shown again.`,
    );
    await this.refreshList();
  }

  async copySecret(): Promise<void> {
    const created = this.state.created;
    if (created === null) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      this.note('Copied the secret.');
    } catch {
      this.note(
        'This browser did not allow copying: select the secret and copy it.',
      );
    }
  }

  /** Revokes key `id` after asking; whoever holds it is refused from then on. */
  async revoke(id: string): Promise<void> {
    const session = this.page.session();
    const key = this.state.list?.find((k) => k.id === id);
    if (!session || key === undefined) return;
    const confirmed = await this.page.ask({
      title: `Revoke the key “${key.label}”?`,
      body: 'Whoever holds it is refused from now on, on every server. This cannot be undone.',
      confirm: 'Revoke the key',
      cancel: 'Keep it',
      danger: true,
    });
    if (!confirmed) {
      this.page.focus(`#revoke-${CSS.escape(id)}`);
      return;
    }
    try {
      await revokeKey(id, session.caller);
    } catch (error) {
      this.state.problem = `Not revoked: ${this.page.describe(error)}`;
      return;
    }
    this.page.announce(`Revoked the key “${key.label}”.`);
    await this.refreshList();
    this.page.focus('#keys-list-heading');
  }

  async refreshList(): Promise<void> {
    const session = this.page.session();
    if (!session) return;
    try {
      this.state.list = await listKeys(session.caller);
    } catch (error) {
      this.state.problem = `The keys cannot be listed: ${this.page.describe(error)}`;
    }
  }

  private note(text: string): void {
    this.state.note = text;
    this.page.announce(text);
  }
}

const FIELD_NAMES: Record<string, string> = {
  label: 'The label',
  scope: 'The scope',
  configs: 'The config names',
  expiresAt: 'The expiry',
};

const FIELD_IDS: Record<string, string> = {
  label: 'key-label',
  scope: 'key-scope',
  configs: 'key-configs',
  expiresAt: 'key-expires',
};
