/**
 * UI state of the Servers screen (zustand), kept apart from the console mirror (renderer/store.ts)
 * because it is the person's own view: per server, the tab, the selected tool, how far the page and
 * the tool list were scrolled and the arguments typed into each tool's form — all kept while the
 * page lives, so leaving the screen (or the server) and coming back finds them as they were. Also
 * the calls the person started from a tool form whose result is still to be brought into view.
 * Nothing here is main's state.
 */
import { create } from 'zustand';
import type { FormValues } from './schema-form';

/** The tabs of a server's page. */
export type ServerTab = 'tools' | 'prompts' | 'resources' | 'log';

/** What the person typed into one tool's form: the fields' values, and the Raw JSON text while that mode is on. */
export interface ToolArgs {
  values: FormValues;
  raw: string | null;
}

/** One server's page as the person left it. */
export interface ServerPage {
  tab: ServerTab;
  tool: string | null;
  /** The page's scroll offset (px). */
  scrollTop: number;
  /** The tool list's scroll offset (px). */
  toolsScrollTop: number;
  /** Typed arguments by tool name. */
  args: Record<string, ToolArgs>;
}

const FRESH: ServerPage = { tab: 'tools', tool: null, scrollTop: 0, toolsScrollTop: 0, args: {} };

/** The Servers screen's UI state and the actions that change it. */
export interface ServersUi {
  /** By server id. */
  pages: Record<string, ServerPage>;
  /** Ids of calls started from a tool form whose result has not been scrolled into view yet. */
  toReveal: Record<string, true>;
  setTab(serverId: string, tab: ServerTab): void;
  selectTool(serverId: string, tool: string | null): void;
  keepScroll(serverId: string, at: Partial<Pick<ServerPage, 'scrollTop' | 'toolsScrollTop'>>): void;
  setArgs(serverId: string, tool: string, args: ToolArgs): void;
  /** Marks a call the person just started: its result is brought into view once it ends. */
  revealWhenDone(callId: string): void;
  /** The call's result was brought into view (or there is none to show). */
  revealed(callId: string): void;
}

/** A server's page as the person left it (a fresh one for a server not opened yet). */
export function pageOf(ui: Pick<ServersUi, 'pages'>, serverId: string): ServerPage {
  return ui.pages[serverId] ?? FRESH;
}

/** The store hook. */
export const useServersUi = create<ServersUi>()((set) => {
  const patch = (serverId: string, change: (page: ServerPage) => Partial<ServerPage>) =>
    set((s) => {
      const page = pageOf(s, serverId);
      return { pages: { ...s.pages, [serverId]: { ...page, ...change(page) } } };
    });
  return {
    pages: {},
    toReveal: {},
    setTab: (serverId, tab) => patch(serverId, () => ({ tab })),
    selectTool: (serverId, tool) => patch(serverId, () => ({ tool })),
    keepScroll: (serverId, at) => patch(serverId, () => at),
    setArgs: (serverId, tool, args) => patch(serverId, (page) => ({ args: { ...page.args, [tool]: args } })),
    revealWhenDone: (callId) => set((s) => ({ toReveal: { ...s.toReveal, [callId]: true } })),
    revealed: (callId) =>
      set((s) => {
        if (!s.toReveal[callId]) return s;
        const toReveal = { ...s.toReveal };
        delete toReveal[callId];
        return { toReveal };
      }),
  };
});

/** Scrolls `el` into view, at once when the person asked the system for reduced motion. */
export function bringIntoView(el: Element): void {
  const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'nearest', behavior: reduce ? 'auto' : 'smooth' });
}
