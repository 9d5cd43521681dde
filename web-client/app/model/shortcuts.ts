/**
 * The keyboard shortcuts of the links list, as one table and one pure dispatcher: which key does
 * what, and that none fires while a text field has the focus (typing `j` in the filter types a `j`),
 * nor with Ctrl, Alt or ⌘ held (those belong to the browser and Ctrl+S). Escape is the exception in a
 * field: it cancels there too.
 */

/** What a shortcut does. */
export type Shortcut =
  'focus-filter' | 'next' | 'previous' | 'edit' | 'select' | 'cancel' | 'help';

/** The shortcuts, in the order the help lists them. */
export const SHORTCUTS: readonly {
  key: string;
  shortcut: Shortcut;
  what: string;
}[] = [
  { key: '/', shortcut: 'focus-filter', what: 'Focus the filter' },
  { key: 'j', shortcut: 'next', what: 'Next link' },
  { key: 'k', shortcut: 'previous', what: 'Previous link' },
  { key: 'e', shortcut: 'edit', what: 'Edit the current link' },
  { key: 'x', shortcut: 'select', what: 'Select or unselect the current link' },
  {
    key: 'Escape',
    shortcut: 'cancel',
    what: 'Cancel: close the form, clear the selection',
  },
  { key: '?', shortcut: 'help', what: 'List these shortcuts' },
];

/** The parts of a key press the dispatcher reads. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focus is in a place that takes typing (input, textarea, select, contenteditable). */
  inTextField: boolean;
}

const BY_KEY = new Map(SHORTCUTS.map((entry) => [entry.key, entry.shortcut]));

/** The shortcut `press` stands for, or null when it is not one (or is typing). */
export function shortcutOf(press: KeyPress): Shortcut | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const shortcut = BY_KEY.get(press.key) ?? null;
  if (press.inTextField && shortcut !== 'cancel') return null;
  return shortcut;
}

/** Input types that are buttons, not typing. */
const NOT_TYPING = new Set([
  'button',
  'checkbox',
  'radio',
  'submit',
  'reset',
  'file',
  'color',
  'range',
  'image',
]);

/** Whether an element with this tag, `type` and editability takes typing. */
export function takesTyping(element: {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}): boolean {
  const tag = element.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input')
    return !NOT_TYPING.has((element.type ?? 'text').toLowerCase());
  return element.isContentEditable === true;
}

/** The id `steps` rows from `current` in `order` (clamped to its ends; the first when none is current). */
export function moveCursor(
  order: readonly string[],
  current: string | null,
  steps: number,
): string | null {
  if (order.length === 0) return null;
  const at = current === null ? -1 : order.indexOf(current);
  if (at === -1) return steps < 0 ? (order.at(-1) ?? null) : (order[0] ?? null);
  return order[Math.min(order.length - 1, Math.max(0, at + steps))] ?? null;
}
