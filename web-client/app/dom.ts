/** Small DOM helpers for the page: typed element lookup and element creation without innerHTML. */

/** The element with `data-testid="<id>"`; throws when the page markup lacks it. */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.querySelector<T>(`[data-testid="${id}"]`);
  if (!found) throw new Error(`The page has no element "${id}"`);
  return found;
}

/** Attributes of {@link h}: plain attributes, plus `text` for the text content. */
export type Attributes = Record<string, string | undefined> & { text?: string };

/**
 * Creates an element with attributes and children. Text goes through `textContent`, never HTML, so
 * stored labels and URLs cannot inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (key === 'text') element.textContent = value;
    else element.setAttribute(key, value);
  }
  element.append(...children);
  return element;
}

/** The trimmed value of a named form control, or '' when there is none. */
export function fieldValue(form: HTMLFormElement, name: string): string {
  const control = form.elements.namedItem(name);
  return control instanceof HTMLInputElement ||
    control instanceof HTMLSelectElement
    ? control.value.trim()
    : '';
}

/** Sets the value of a named input of `form`. */
export function setFieldValue(
  form: HTMLFormElement,
  name: string,
  value: string,
): void {
  const control = form.elements.namedItem(name);
  if (control instanceof HTMLInputElement) control.value = value;
}
