// static-markup.ts: a component tree's HTML, as the unit tests read it, drawn by the renderer the
// site ships (preact/compat, web/compat/react-alias.ts) into the fake DOM (fake-dom.ts) and written
// out in react-dom/server's static markup form. Effects are not waited for (as on a server): the
// tree is unmounted as soon as it is written. `prerender` first waits for lazy components to load.
import { options, render, type ComponentChild } from 'preact';
// preact/compat (the alias of react) first: its option hooks must be set before ours wrap them.
import 'react';
import type { ReactNode } from 'react';
import { installFakeDom, type FakeElement } from './fake-dom';

// Written without a closing tag.
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'wbr']);
// HTML's boolean attributes: present and empty when true, as React writes them.
const BOOLEAN = new Set([
  'allowfullscreen',
  'async',
  'autofocus',
  'checked',
  'controls',
  'default',
  'defer',
  'disabled',
  'formnovalidate',
  'hidden',
  'inert',
  'loop',
  'multiple',
  'muted',
  'nomodule',
  'novalidate',
  'open',
  'playsinline',
  'readonly',
  'required',
  'reversed',
  'selected',
]);

function escapeHtml(s: unknown): string {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

// DOM properties Preact sets as properties on a real element (the fake has none, so they arrive
// as attributes under their property names), by the attribute they reflect.
const PROPERTY_ATTRIBUTE: Record<string, string> = {
  className: 'class',
  htmlFor: 'for',
  acceptCharset: 'accept-charset',
  httpEquiv: 'http-equiv',
};

// react-dom writes attributes in the order the props were given; Preact sets some later (the
// class that preact/compat makes of className, value). So the props' order is noted as elements
// are made (before preact/compat renames them) and put back when written.
type Hook = (vnode: { type: unknown; props: object; __e?: unknown }) => void;
const vnodeHooks = options as unknown as { vnode?: Hook; diffed?: Hook };
// Keyed by props object: a vnode drawn again is a copy sharing (then renaming again) its props.
const given = new WeakMap<object, string[]>();
const elementProps = new WeakMap<object, string[]>();
const compatVnode = vnodeHooks.vnode;
vnodeHooks.vnode = (v) => {
  const keys = given.get(v.props) ?? Object.keys(v.props);
  compatVnode?.(v);
  if (typeof v.type === 'string') given.set(v.props, keys);
};
const compatDiffed = vnodeHooks.diffed;
vnodeHooks.diffed = (v) => {
  const keys = given.get(v.props);
  if (keys && v.__e) elementProps.set(v.__e, keys);
  compatDiffed?.(v);
};
// A prop's and an attribute's name compared: className is class, stroke-width is strokeWidth.
const plain = (name: string) =>
  (PROPERTY_ATTRIBUTE[name] ?? name).replace(/[-:]/g, '').toLowerCase();

function inPropOrder(e: FakeElement): [string, string][] {
  const keys = (elementProps.get(e) ?? []).map(plain);
  const rank = (k: string) => {
    const i = keys.indexOf(plain(k));
    return i < 0 ? keys.length : i;
  };
  return [...e.attributes].sort((a, b) => rank(a[0]) - rank(b[0]));
}

function attrs(e: FakeElement, html: boolean): string {
  let out = '';
  for (const [k, v] of inPropOrder(e)) {
    // HTML names are case-free (tabIndex is tabindex); SVG's keep their case (viewBox).
    const name = html ? (PROPERTY_ATTRIBUTE[k] ?? k.toLowerCase()) : k;
    if (k === 'className' && e.attributes.has('class')) continue;
    if (BOOLEAN.has(name)) {
      if (v !== 'false') out += ` ${name}=""`;
    } else out += ` ${name}="${escapeHtml(v)}"`;
  }
  return out;
}

/** One node and everything below it, as HTML. */
export function outerHtml(n: FakeElement | FakeElement['childNodes'][number]): string {
  if (n.nodeType === 3) return escapeHtml(n.nodeValue ?? '');
  if (n.nodeType !== 1) return '';
  const e = n as FakeElement;
  const tag = e.localName; // as created: SVG keeps its names' case (foreignObject)
  const open = `<${tag}${attrs(e, e.namespaceURI === 'http://www.w3.org/1999/xhtml')}>`;
  if (VOID.has(tag)) return open;
  return `${open}${e.childNodes.map(outerHtml).join('')}</${tag}>`;
}

function container(): FakeElement {
  const doc = (
    globalThis as unknown as {
      document?: { body: FakeElement; createElement(t: string): FakeElement };
    }
  ).document;
  if (!doc || !('all' in doc.body)) return installFakeDom();
  const root = doc.createElement('div');
  doc.body.appendChild(root);
  return root;
}

function write(root: FakeElement): string {
  const html = root.childNodes.map(outerHtml).join('');
  render(null, root as unknown as Element);
  root.parentNode?.removeChild(root);
  return html;
}

/** The tree's HTML, drawn once, without its effects' later changes. */
export function renderToStaticMarkup(node: ReactNode): string {
  const root = container();
  render(node as ComponentChild, root as unknown as Element);
  return write(root);
}

// Preact's error hook (options._catchError, `__e` in its build): a lazy component that has not
// loaded throws its promise through it to the nearest Suspense.
type CatchHook = (error: unknown, ...rest: unknown[]) => void;
const hooks = options as unknown as { __e: CatchHook };

/** The tree's HTML once every lazy component in it has loaded (Suspense no longer waits). */
export async function prerender(node: ReactNode): Promise<string> {
  for (let pass = 0; ; pass++) {
    const loading: PromiseLike<unknown>[] = [];
    const caught = hooks.__e;
    hooks.__e = (error, ...rest) => {
      if (error && typeof (error as PromiseLike<unknown>).then === 'function')
        loading.push(error as PromiseLike<unknown>);
      caught(error, ...rest);
    };
    const root = container();
    try {
      render(node as ComponentChild, root as unknown as Element);
    } finally {
      hooks.__e = caught;
    }
    const html = write(root);
    if (loading.length === 0) return html;
    if (pass === 10) throw new Error('prerender: lazy components still loading after 10 passes');
    await Promise.all(loading);
  }
}
