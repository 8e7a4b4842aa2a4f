// Small DOM and HTTP helpers shared by the pages.

import type { ApiErrorJson } from './types';

type Attrs = Record<string, string | number | boolean | EventListener | undefined>;
type Child = Node | string | null | undefined | false;

/** Creates an element: h('button', {class: 'x', onclick: f}, 'text'). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value as EventListener);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** An error answer of the API: the status, the server's message and its whole answer (which
 * names, for `/api/tb`, the table that is missing). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: ApiErrorJson | null = null,
  ) {
    super(message);
  }
}

/** Fetches JSON from the API; a 4xx/5xx becomes an ApiError with the server's `error` text. */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, `the server cannot be reached (${(e as Error).message})`);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (!res.ok) {
    const message =
      body && typeof body === 'object' && 'error' in body
        ? String((body as { error: unknown }).error)
        : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, message, body && typeof body === 'object' && 'error' in body ? (body as ApiErrorJson) : null);
  }
  return body as T;
}

/** Query string helper: q({fen: 'x y'}) -> 'fen=x%20y'. */
export function q(params: Record<string, string | number>): string {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** Copies text to the clipboard and shows "Copied" on the button for a moment. */
export async function copyText(text: string, button: HTMLElement): Promise<void> {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    // Clipboard access needs a secure context or permission: fall back to a selection.
    const area = h('textarea', { class: 'offscreen' }, text);
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    button.textContent = ok ? 'Copied' : 'Copy failed';
  }
  setTimeout(() => (button.textContent = label), 1200);
}

/** Offers text as a file download. */
export function download(name: string, text: string, type = 'application/x-chess-pgn'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** True when a key press belongs to a text field, not to the page's shortcuts. */
export function typingInField(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t) return false;
  const tag = t.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable;
}

/** Sets the page's URL query without adding a history entry. */
export function setQuery(params: Record<string, string | number | undefined>): void {
  history.replaceState(null, '', withQuery(params));
}

/** Sets the page's URL query as a new history entry: Back returns to the one before. */
export function pushQuery(params: Record<string, string | number | undefined>): void {
  history.pushState(null, '', withQuery(params));
}

function withQuery(params: Record<string, string | number | undefined>): URL {
  const url = new URL(location.href);
  url.search = '';
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  }
  return url;
}

/** A live region for messages read out by screen readers too. */
export function message(text: string, kind: 'info' | 'error' | 'ok' = 'info'): HTMLElement {
  return h('p', { class: `msg msg-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}
