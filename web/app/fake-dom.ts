// fake-dom.ts: the least DOM that the renderer (preact/compat) needs to mount, update and unmount a tree in
// Node (the tests run without a browser DOM), so a test can see what a client render draws.
// Elements keep attributes and children; events, layout and selection are not modelled.

class FakeNode {
  childNodes: FakeNode[] = [];
  parentNode: FakeNode | null = null;
  ownerDocument!: FakeDocument;
  constructor(
    readonly nodeType: number,
    readonly nodeName: string,
    public nodeValue: string | null = null,
  ) {}
  get firstChild(): FakeNode | null {
    return this.childNodes[0] ?? null;
  }
  get lastChild(): FakeNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }
  get nextSibling(): FakeNode | null {
    const s = this.parentNode?.childNodes;
    return s ? (s[s.indexOf(this) + 1] ?? null) : null;
  }
  get parentElement(): FakeNode | null {
    return this.parentNode;
  }
  appendChild(c: FakeNode): FakeNode {
    return this.insertBefore(c, null);
  }
  insertBefore(c: FakeNode, before: FakeNode | null): FakeNode {
    c.parentNode?.removeChild(c);
    const i = before ? this.childNodes.indexOf(before) : -1;
    if (i < 0) this.childNodes.push(c);
    else this.childNodes.splice(i, 0, c);
    c.parentNode = this;
    return c;
  }
  removeChild(c: FakeNode): FakeNode {
    this.childNodes = this.childNodes.filter((n) => n !== c);
    c.parentNode = null;
    return c;
  }
  get textContent(): string {
    return this.nodeType === 3
      ? (this.nodeValue ?? '')
      : this.childNodes.map((c) => c.textContent).join('');
  }
  set textContent(t: string) {
    if (this.nodeType === 3) this.nodeValue = t;
    else {
      this.childNodes = [];
      if (t) this.appendChild(this.ownerDocument.createTextNode(t));
    }
  }
  get data(): string {
    return this.nodeValue ?? '';
  }
  set data(t: string) {
    this.nodeValue = t;
  }
  addEventListener(): void {}
  removeEventListener(): void {}
}

class FakeElement extends FakeNode {
  attributes = new Map<string, string>();
  /** The inline style as set property by property, kept as the `style` attribute. */
  style: { [k: string]: unknown; setProperty: (k: string, v: string) => void };
  namespaceURI = 'http://www.w3.org/1999/xhtml';
  constructor(readonly localName: string) {
    super(1, localName.toUpperCase());
    const props = new Map<string, string>();
    const write = (k: string, v: unknown) => {
      const name = k.startsWith('-') ? k : k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);
      if (v === '' || v == null) props.delete(name);
      else props.set(name, String(v));
      if (props.size === 0) this.attributes.delete('style');
      else this.attributes.set('style', [...props].map(([n, x]) => `${n}:${x}`).join(';'));
    };
    this.style = new Proxy(
      { setProperty: (k: string, v: string) => write(k, v) },
      {
        set: (target, k, v) => {
          if (typeof k === 'string') write(k, v);
          return true;
        },
      },
    );
  }
  get tagName(): string {
    return this.nodeName;
  }
  /** A canvas with no drawing context, as a browser gives when it has none: nothing paints. */
  getContext(): null {
    return null;
  }
  setAttribute(k: string, v: string): void {
    this.attributes.set(k, String(v));
  }
  getAttribute(k: string): string | null {
    return this.attributes.get(k) ?? null;
  }
  removeAttribute(k: string): void {
    this.attributes.delete(k);
  }
  hasAttribute(k: string): boolean {
    return this.attributes.has(k);
  }
  /** Every element below (and including) this one, depth first. */
  all(): FakeElement[] {
    const out: FakeElement[] = [this];
    for (const c of this.childNodes) if (c instanceof FakeElement) out.push(...c.all());
    return out;
  }
}

class FakeDocument extends FakeNode {
  documentElement: FakeElement;
  body: FakeElement;
  activeElement: FakeElement | null = null;
  defaultView: unknown = null;
  constructor() {
    super(9, '#document');
    this.ownerDocument = this;
    this.documentElement = this.createElement('html');
    this.body = this.createElement('body');
    this.appendChild(this.documentElement);
    this.documentElement.appendChild(this.body);
    this.activeElement = this.body;
  }
  createElement(tag: string): FakeElement {
    const e = new FakeElement(tag);
    e.ownerDocument = this;
    return e;
  }
  createElementNS(ns: string, tag: string): FakeElement {
    const e = this.createElement(tag);
    e.namespaceURI = ns;
    return e;
  }
  createTextNode(t: string): FakeNode {
    const n = new FakeNode(3, '#text', t);
    n.ownerDocument = this;
    return n;
  }
  createComment(t: string): FakeNode {
    const n = new FakeNode(8, '#comment', t);
    n.ownerDocument = this;
    return n;
  }
  getSelection(): null {
    return null;
  }
}

export type { FakeElement };

/** Install a fresh document and window on globalThis; returns a container to render into. */
export function installFakeDom(): FakeElement {
  const doc = new FakeDocument();
  const g = globalThis as Record<string, unknown>;
  class HTMLIFrameElement {}
  const win = {
    document: doc,
    HTMLIFrameElement,
    addEventListener: () => {},
    removeEventListener: () => {},
    getSelection: () => null,
    location: { hash: '' },
    event: undefined,
  };
  doc.defaultView = win;
  g.document = doc;
  g.window = win;
  g.HTMLIFrameElement = HTMLIFrameElement;
  g.IS_REACT_ACT_ENVIRONMENT = true;
  const root = doc.createElement('div');
  doc.body.appendChild(root);
  return root;
}
