/**
 * Runs INSIDE the page (Chromium over CDP and Firefox over WebDriver BiDi alike): puppeteer
 * serialises this function with `toString()`, so it must not reference anything outside its own
 * body, and must stay plain enough that the TypeScript transform adds no helpers.
 *
 * Why not puppeteer's built-in `::-p-aria`: under Firefox BiDi a password input has no computed
 * role (the contract allows a password input for textbox "API key"), labels match their own text,
 * and neither browser offers the contract's case-insensitive or "starts with" name matching. One
 * resolver for both browsers keeps the two suites' meaning identical.
 *
 * It covers the subset of HTML-AAM roles and the accessible-name computation this product uses;
 * extend it when a test needs another role.
 */
export function queryAllByRole(root: Node, encodedSpec: string): Element[] {
  type TextMatcher =
    | { kind: 'exact'; value: string }
    | { kind: 'startsWith'; value: string }
    | { kind: 'contains'; value: string }
    | { kind: 'regex'; source: string; flags: string };
  interface Spec {
    role: string;
    name?: TextMatcher;
    text?: TextMatcher;
    within?: Spec;
    includeHidden?: boolean;
  }

  const spec = JSON.parse(decodeURIComponent(encodedSpec)) as Spec;

  const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();

  const matches = (matcher: TextMatcher | undefined, raw: string): boolean => {
    if (!matcher) return true;
    const text = normalise(raw);
    if (matcher.kind === 'regex') return new RegExp(matcher.source, matcher.flags).test(text);
    const haystack = text.toLowerCase();
    const needle = normalise(matcher.value).toLowerCase();
    if (matcher.kind === 'exact') return haystack === needle;
    if (matcher.kind === 'startsWith') return haystack.startsWith(needle);
    return haystack.includes(needle);
  };

  const isHidden = (element: Element): boolean => {
    for (let node: Element | null = element; node; node = node.parentElement) {
      if (node.getAttribute('aria-hidden') === 'true' || node.hasAttribute('inert')) return true;
      // A closed <dialog> is display:none, which checkVisibility catches below.
    }
    const html = element as HTMLElement;
    if (typeof html.checkVisibility === 'function') {
      return !html.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
    }
    const style = getComputedStyle(element);
    return style.display === 'none' || style.visibility === 'hidden';
  };

  const inputRole = (input: HTMLInputElement): string | null => {
    const type = (input.getAttribute('type') ?? 'text').toLowerCase();
    switch (type) {
      case 'button':
      case 'submit':
      case 'reset':
      case 'image':
        return 'button';
      case 'checkbox':
        return 'checkbox';
      case 'radio':
        return 'radio';
      case 'range':
        return 'slider';
      case 'number':
        return 'spinbutton';
      case 'search':
        return input.hasAttribute('list') ? 'combobox' : 'searchbox';
      case 'hidden':
      case 'file':
      case 'color':
      case 'date':
      case 'datetime-local':
      case 'month':
      case 'time':
      case 'week':
        return null;
      default:
        // text, email, tel, url, password (allowed by the contract for "textbox") and unknown types.
        return input.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  };

  const hasOwnName = (element: Element): boolean =>
    Boolean(element.getAttribute('aria-label')?.trim() || element.getAttribute('aria-labelledby')?.trim());

  const implicitRole = (element: Element): string | null => {
    const tag = element.localName;
    switch (tag) {
      case 'button':
        return 'button';
      case 'a':
      case 'area':
        return element.hasAttribute('href') ? 'link' : null;
      case 'input':
        return inputRole(element as HTMLInputElement);
      case 'textarea':
        return 'textbox';
      case 'select': {
        const select = element as HTMLSelectElement;
        return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
      }
      case 'option':
        return 'option';
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        return 'heading';
      case 'ul':
      case 'ol':
      case 'menu':
        return 'list';
      case 'li':
        return 'listitem';
      case 'section':
        return hasOwnName(element) ? 'region' : null;
      case 'form':
        return hasOwnName(element) ? 'form' : null;
      case 'img':
        return element.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'dialog':
        return 'dialog';
      case 'output':
        return 'status';
      case 'table':
        return 'table';
      case 'tr':
        return 'row';
      case 'td':
        return 'cell';
      case 'th':
        return element.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'nav':
        return 'navigation';
      case 'main':
        return 'main';
      case 'aside':
        return 'complementary';
      case 'fieldset':
      case 'details':
        return 'group';
      case 'summary':
        return 'button';
      case 'progress':
        return 'progressbar';
      case 'meter':
        return 'meter';
      case 'p':
        return 'paragraph';
      case 'dl':
        return 'list';
      default:
        return null;
    }
  };

  const roleOf = (element: Element): string | null => {
    const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
    if (explicit) return explicit === 'none' ? 'presentation' : explicit;
    return implicitRole(element);
  };

  const NAME_FROM_CONTENT = new Set([
    'button',
    'cell',
    'checkbox',
    'columnheader',
    'gridcell',
    'heading',
    'link',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'radio',
    'row',
    'rowheader',
    'switch',
    'tab',
    'tooltip',
    'treeitem',
  ]);

  const isFormControl = (element: Element): boolean =>
    ['input', 'select', 'textarea', 'button'].includes(element.localName);

  const textFromContent = (node: Node, visited: Set<Node>): string => {
    if (visited.has(node)) return '';
    visited.add(node);
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const element = node as Element;
    if (isHidden(element)) return '';
    const label = element.getAttribute('aria-label')?.trim();
    if (label) return ` ${label} `;
    if (element.localName === 'img') return ` ${element.getAttribute('alt') ?? ''} `;
    // Embedded controls contribute their value, not their options or label text.
    if (element.localName === 'select') {
      const select = element as HTMLSelectElement;
      return ` ${select.selectedOptions[0]?.textContent ?? ''} `;
    }
    if (element.localName === 'input' || element.localName === 'textarea') {
      return ` ${(element as HTMLInputElement).value} `;
    }
    let text = '';
    for (const child of element.childNodes) text += textFromContent(child, visited);
    const display = getComputedStyle(element).display;
    return display.startsWith('inline') ? text : ` ${text} `;
  };

  const nameOf = (element: Element): string => {
    const labelledBy = element.getAttribute('aria-labelledby')?.trim();
    if (labelledBy) {
      const parts = labelledBy
        .split(/\s+/)
        .map((id) => element.ownerDocument.getElementById(id))
        .filter((ref): ref is HTMLElement => ref !== null)
        .map((ref) => ref.getAttribute('aria-label')?.trim() || textFromContent(ref, new Set([element])));
      const joined = normalise(parts.join(' '));
      if (joined) return joined;
    }
    const ariaLabel = element.getAttribute('aria-label')?.trim();
    if (ariaLabel) return normalise(ariaLabel);

    const tag = element.localName;
    if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button' || tag === 'meter') {
      const input = element as HTMLInputElement;
      const type = (input.getAttribute('type') ?? '').toLowerCase();
      if (tag === 'input' && ['button', 'submit', 'reset'].includes(type)) {
        return normalise(input.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
      }
      if (tag === 'input' && type === 'image') return normalise(input.getAttribute('alt') ?? 'Submit');
      const labels = input.labels ? [...input.labels] : [];
      if (labels.length > 0) {
        // The control's own value is not part of its name, even when its label wraps it.
        return normalise(labels.map((label) => textFromContent(label, new Set([element]))).join(' '));
      }
    }
    if (tag === 'img' || tag === 'area') {
      const alt = element.getAttribute('alt');
      if (alt) return normalise(alt);
    }
    if (tag === 'fieldset') {
      const legend = element.querySelector(':scope > legend');
      if (legend) return normalise(textFromContent(legend, new Set()));
    }
    if (tag === 'table') {
      const caption = element.querySelector(':scope > caption');
      if (caption) return normalise(textFromContent(caption, new Set()));
    }
    const role = roleOf(element);
    if (role && NAME_FROM_CONTENT.has(role) && !(tag === 'input' || tag === 'select' || tag === 'textarea')) {
      // From the children: the element itself may be hidden when the caller asked for hidden ones.
      const visited = new Set<Node>([element]);
      const text = normalise(
        [...element.childNodes].map((child) => textFromContent(child, visited)).join(''),
      );
      if (text) return text;
    }
    const title = element.getAttribute('title')?.trim();
    if (title) return normalise(title);
    const placeholder = element.getAttribute('placeholder')?.trim();
    if (placeholder && isFormControl(element)) return normalise(placeholder);
    return '';
  };

  const find = (scope: Node, query: Spec): Element[] => {
    const container =
      scope.nodeType === Node.DOCUMENT_NODE ? (scope as Document).documentElement : (scope as Element);
    if (!container) return [];
    const candidates = [container, ...container.querySelectorAll('*')];
    return candidates.filter(
      (element) =>
        roleOf(element) === query.role &&
        (query.includeHidden || !isHidden(element)) &&
        matches(query.name, nameOf(element)) &&
        // biome-ignore lint/performance/useDomNodeTextContent: match the text as rendered, like a reader
        matches(query.text, (element as HTMLElement).innerText ?? element.textContent ?? ''),
    );
  };

  if (spec.within) {
    const seen = new Set<Element>();
    for (const scope of find(root, spec.within)) {
      for (const element of find(scope, { ...spec, within: undefined })) seen.add(element);
    }
    return [...seen];
  }
  return find(root, spec);
}
