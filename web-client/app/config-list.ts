/** The list of config names and the "create a config" form. */
import { byTestId, fieldValue, h } from './dom.js';

/** What the list asks its owner to do. */
export interface ConfigListActions {
  open(name: string): void;
  create(name: string): Promise<boolean>;
}

/** Renders config names as buttons; the open one is marked with `aria-current`. */
export class ConfigList {
  private readonly list = byTestId('config-list');
  private readonly form = byTestId<HTMLFormElement>('create-config-form');
  private names: string[] = [];
  private current: string | null = null;

  constructor(private readonly actions: ConfigListActions) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      const name = fieldValue(this.form, 'name');
      if (!name) return;
      void this.actions.create(name).then((created) => {
        if (created) this.form.reset();
      });
    });
  }

  /** Shows `names`; keeps focus on the same name when it is still there. */
  show(names: string[]): void {
    if (names.join('\n') === this.names.join('\n')) return;
    const focused =
      document.activeElement instanceof HTMLElement
        ? document.activeElement.dataset['configName']
        : undefined;
    this.names = names;
    this.render();
    if (focused !== undefined)
      this.list
        .querySelector<HTMLElement>(
          `[data-config-name="${CSS.escape(focused)}"]`,
        )
        ?.focus();
  }

  /** Marks `name` as the open config. */
  select(name: string | null): void {
    this.current = name;
    for (const button of this.list.querySelectorAll<HTMLElement>('button'))
      button.setAttribute(
        'aria-current',
        String(button.dataset['configName'] === name),
      );
  }

  private render(): void {
    if (this.names.length === 0) {
      this.list.replaceChildren(h('li', { text: 'No configs yet.' }));
      return;
    }
    this.list.replaceChildren(
      ...this.names.map((name) => {
        const button = h('button', {
          type: 'button',
          text: name,
          'data-config-name': name,
          'aria-current': String(name === this.current),
        });
        button.addEventListener('click', () => this.actions.open(name));
        return h('li', { 'data-testid': 'config-item' }, [button]);
      }),
    );
  }
}
