/**
 * The Publish panel's actions (docs/web-app.md): the open config's publish record beside its draft (the
 * newest revision) with what the draft changes against the published revision; Publish (the draft, under
 * `If-Match` of the draft shown, so a draft changed since is never published unseen), Roll back (an
 * older revision), Unpublish; the allowed site origins and the healthy-links option sent with each; and
 * the embed snippet. Publishing lives on the server only; the panel says so while it cannot be reached.
 */
import { diffConfigs, SiteOriginSchema } from '@linkconfig/shared';
import { createPublishClient, RemoteStoreError } from '@linkconfig/web-client';
import type { PublishClient, PublishOptions } from '@linkconfig/web-client';
import type { PageContext } from './page-context.js';
import { initialPublish } from '../state/publish-state.js';
import { embedSnippet } from '../model/embed-snippet.js';

/** How many of the newest revisions the panel lists to roll back to. */
const REVISIONS = 30;

export class PublishActions {
  /** A refresh was asked for while a read ran: read once more after it. */
  private again = false;

  constructor(private readonly page: PageContext) {}

  private get state() {
    return this.page.state.publish;
  }

  private client(): PublishClient | null {
    const session = this.page.session();
    return session === null ? null : createPublishClient(session.caller);
  }

  /** Opens the panel for the open config and reads its publish record and newest revisions. */
  async openPanel(): Promise<void> {
    const name = this.page.state.open?.name;
    if (name === undefined) return;
    this.page.state.publish = { ...initialPublish(), name };
    this.page.focus('#publish-heading');
    await this.load(name);
  }

  closePanel(): void {
    this.state.name = null;
    this.page.focus('[data-testid="open-publish"]');
  }

  /**
   * Reads everything again when the panel is open (for `name`, when given) and nothing runs: the draft
   * may have moved (a save reached the server, or a change from elsewhere arrived).
   */
  async refresh(name?: string): Promise<void> {
    const open = this.state.name;
    if (open === null || (name !== undefined && name !== open)) return;
    if (this.state.loading || this.state.busy) {
      this.again = true;
      return;
    }
    await this.load(open);
  }

  /** Reads the record, the revisions and the diff of the draft against the published revision. */
  async load(name: string): Promise<void> {
    const client = this.client();
    const session = this.page.session();
    if (client === null || session === null) return;
    this.state.loading = true;
    try {
      const [record, history] = await Promise.all([
        client.publishStatus(name),
        session.store.history(name, { limit: REVISIONS }),
      ]);
      if (this.state.name !== name) return;
      const revisions = (history?.revisions ?? []).filter(
        (r) => r.etag !== null,
      );
      const draft = revisions[0];
      Object.assign(this.state, {
        record,
        revisions,
        origins: record?.origins === undefined ? null : record.origins,
        hideBroken: record?.hideBroken ?? false,
        rollbackRev:
          revisions.find((r) => record !== null && r.rev < record.rev)?.rev ??
          0,
        diff: null,
      });
      if (record !== null && draft !== undefined && draft.rev !== record.rev) {
        const [published, current] = await Promise.all([
          session.store.loadRevision(name, record.rev),
          session.store.loadRevision(name, draft.rev),
        ]);
        if (this.state.name !== name) return;
        this.state.diff = diffConfigs(
          published?.config ?? null,
          current?.config ?? null,
        );
      }
    } catch (error) {
      if (this.state.name === name) this.fail(error);
    } finally {
      this.state.loading = false;
    }
    if (this.again && this.state.name === name) {
      this.again = false;
      await this.load(name);
    }
  }

  /** Publishes the draft shown (the newest revision), as long as it is still the server's draft. */
  async publish(): Promise<void> {
    const name = this.state.name;
    const draft = this.state.revisions[0];
    if (name === null || draft === undefined) return;
    const open = this.page.state.open;
    if (open?.name === name && open.dirty) {
      this.fail(
        'This config has unsaved edits: save them (or revert) before publishing, so what you publish is what you see.',
      );
      return;
    }
    await this.run(name, `Published revision ${draft.rev}.`, (client) =>
      client.publish(name, {
        ...this.settings(),
        ...(draft.etag === null ? {} : { ifMatch: draft.etag }),
      }),
    );
  }

  /** Publishes the older revision picked, after asking. */
  async rollback(): Promise<void> {
    const name = this.state.name;
    const rev = this.state.rollbackRev;
    if (name === null || rev === 0) return;
    const confirmed = await this.page.ask({
      title: `Roll back ${name} to revision ${rev}?`,
      body: `Sites are served revision ${rev} from now on (through caches within seconds). The draft stays as it is.`,
      confirm: `Publish revision ${rev}`,
      cancel: 'Keep what is published',
      danger: false,
    });
    if (!confirmed) return;
    await this.run(name, `Rolled back: revision ${rev} is published.`, (c) =>
      c.publish(name, { rev, ...this.settings() }),
    );
  }

  /** Publishes the published revision again with the origins and option as edited. */
  async applySettings(): Promise<void> {
    const name = this.state.name;
    const rev = this.state.record?.rev;
    if (name === null || rev === undefined) return;
    await this.run(name, 'Saved the sites and the option.', (c) =>
      c.publish(name, { rev, ...this.settings() }),
    );
  }

  /** Unpublishes after asking: sites get no menu from then on; the draft stays. */
  async unpublish(): Promise<void> {
    const name = this.state.name;
    if (name === null || this.state.record === null) return;
    const confirmed = await this.page.ask({
      title: `Unpublish ${name}?`,
      body: 'Sites showing this menu get none any more (caches let go within seconds). The draft and its history stay.',
      confirm: 'Unpublish',
      cancel: 'Keep it published',
      danger: true,
    });
    if (!confirmed) return;
    await this.run(name, `Unpublished ${name}.`, (c) => c.unpublish(name));
  }

  pickRollback(rev: number): void {
    this.state.rollbackRev = rev;
  }

  setHideBroken(on: boolean): void {
    this.state.hideBroken = on;
  }

  /** Any origin (null), or a list to fill in. */
  setAnyOrigin(any: boolean): void {
    this.state.origins = any ? null : (this.state.origins ?? []);
  }

  inputOrigin(text: string): void {
    this.state.newOrigin = text;
  }

  /** Adds the origin typed, when it is one (the shared rule the server applies). */
  addOrigin(): void {
    const text = this.state.newOrigin.trim();
    const checked = SiteOriginSchema.safeParse(text);
    if (!checked.success) {
      this.fail(
        `“${text}” is not a site origin: ${checked.error.issues[0]?.message ?? 'invalid'}.`,
      );
      return;
    }
    const origins = this.state.origins ?? [];
    if (!origins.includes(text)) this.state.origins = [...origins, text];
    this.state.newOrigin = '';
    this.state.problem = null;
  }

  removeOrigin(origin: string): void {
    this.state.origins = (this.state.origins ?? []).filter((o) => o !== origin);
  }

  async copySnippet(): Promise<void> {
    const name = this.state.name;
    if (name === null) return;
    try {
      await navigator.clipboard.writeText(embedSnippet(location.origin, name));
      this.note('Copied the snippet.');
    } catch {
      this.note('This browser did not allow copying: select the snippet.');
    }
  }

  /** The origins and option every publish sends. */
  private settings(): PublishOptions {
    const origins = this.state.origins;
    return {
      origins: origins === null ? null : [...origins],
      hideBroken: this.state.hideBroken,
    };
  }

  /** Runs one publishing call, then reads everything again. */
  private async run(
    name: string,
    done: string,
    call: (client: PublishClient) => Promise<unknown>,
  ): Promise<void> {
    const client = this.client();
    if (client === null || this.state.busy) return;
    this.state.busy = true;
    this.state.problem = null;
    this.state.note = null;
    try {
      await call(client);
      this.note(done);
    } catch (error) {
      this.fail(
        error instanceof RemoteStoreError && error.kind === 'conflict'
          ? 'The draft changed on the server since this panel showed it: look at it again (shown now), then publish.'
          : error,
      );
    } finally {
      this.state.busy = false;
    }
    if (this.state.name === name) await this.load(name);
  }

  private note(text: string): void {
    this.state.note = text;
    this.page.announce(text);
  }

  private fail(error: unknown): void {
    this.state.problem =
      typeof error === 'string' ? error : this.page.describe(error);
    this.page.announce(this.state.problem);
  }
}
