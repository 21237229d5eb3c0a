/**
 * The page's one DOM helper: `h(tag, props, ...children)` builds an element. No UI library: the tables are small
 * and redrawn whole from the room's state on each change, so a helper and `draw` (below) are all they need.
 */
type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  label?: string;
  title?: string;
  role?: string;
  /** A stable name for the element, so that `draw` can give focus back to its successor. */
  key?: string;
  disabled?: boolean;
  pressed?: boolean;
  type?: string;
  href?: string;
  value?: string;
  onClick?: (event: Event) => void;
  onInput?: (event: Event) => void;
  attrs?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.text !== undefined) element.textContent = props.text;
  if (props.label) element.setAttribute("aria-label", props.label);
  if (props.title) element.title = props.title;
  if (props.role) element.setAttribute("role", props.role);
  if (props.key) element.dataset.key = props.key;
  if (props.disabled !== undefined && "disabled" in element) (element as HTMLButtonElement).disabled = props.disabled;
  if (props.pressed !== undefined) element.setAttribute("aria-pressed", String(props.pressed));
  if (props.type && "type" in element) element.setAttribute("type", props.type);
  if (props.href && element instanceof HTMLAnchorElement) element.href = props.href;
  if (props.value !== undefined && "value" in element) (element as HTMLInputElement).value = props.value;
  if (props.onClick) element.addEventListener("click", props.onClick);
  if (props.onInput) element.addEventListener("input", props.onInput);
  for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "number" ? String(child) : child);
  }
  return element;
}

/** A button named by its word; `key` keeps keyboard focus on it across redraws. */
export function button(
  text: string,
  onClick: () => void,
  options: { disabled?: boolean; key?: string; class?: string; label?: string } = {},
): HTMLButtonElement {
  return h("button", {
    type: "button",
    text,
    onClick,
    disabled: options.disabled ?? false,
    key: options.key ?? `button:${text}`,
    class: options.class,
    label: options.label,
  });
}

/**
 * Replaces a region's content. A person playing by keyboard keeps their place: the element that had focus is
 * found again in the new content by its `key` and focused (or, if it is gone, the region's first enabled button).
 */
export function draw(region: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement as HTMLElement | null;
  const hadFocus = active !== null && region.contains(active) ? active.dataset.key : undefined;
  const hadFocusInside = active !== null && region.contains(active) && active !== region;
  region.replaceChildren(
    ...children
      .filter((child): child is Node | string => child !== null && child !== undefined && child !== false)
      .map((child) => (typeof child === "number" ? String(child) : child)),
  );
  if (!hadFocusInside) return;
  const again = hadFocus
    ? region.querySelector<HTMLElement>(`[data-key="${CSS.escape(hadFocus)}"]:not([disabled])`)
    : null;
  (again ?? region.querySelector<HTMLElement>("button:not([disabled])"))?.focus();
}

/** A line of text for the page's live log region (newest first, bounded). */
export function logLine(list: HTMLElement, text: string, limit = 40): void {
  list.prepend(h("li", { text }));
  while (list.children.length > limit) list.lastElementChild?.remove();
}
