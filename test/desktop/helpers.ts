/** Builders and fakes for the desktop-life tests: sampling/elicitation items and recording desktop ports. */
import type { DesktopPorts, NotificationRequest, TrayActionId, TrayModel } from '../../main/attention/ports.js';
import type { ThemePreference } from '../../shared/contract/desktop.js';
import type { ElicitationItemView, SamplingItemView, SamplingStatus } from '../../shared/contract/state.js';
import { ui } from '../../shared/contract/ui-text.js';

/** A sampling item from server `serverId` with one user message `prompt`, in `status`. */
export function samplingItem(id: string, status: SamplingStatus, opts: { prompt?: string; serverId?: string; tool?: string; at?: number; origin?: 'server' | 'draft' } = {}): SamplingItemView {
  const at = opts.at ?? 1000;
  return {
    id,
    origin: opts.origin ?? 'server',
    conversationId: id,
    round: 1,
    serverId: opts.serverId ?? 'everything',
    era: 'legacy',
    association: { exact: true, calls: opts.tool ? [{ callId: `c-${id}`, kind: 'tools/call', name: opts.tool }] : [] },
    status,
    receivedAt: at,
    updatedAt: at,
    original: { messages: [{ role: 'user', content: { type: 'text', text: opts.prompt ?? 'Write a haiku' } }], maxTokens: 100 },
    model: { providerId: 'manual', modelId: 'manual', reason: 'test' },
  };
}

/** A form elicitation awaiting input (or in `status`). */
export function elicitation(id: string, message: string, status: ElicitationItemView['status'] = 'awaiting_input', at = 2000): ElicitationItemView {
  return {
    kind: 'elicitation',
    id,
    serverId: 'forms',
    era: 'legacy',
    association: { exact: true, calls: [{ callId: `c-${id}`, kind: 'tools/call', name: 'ask-user' }] },
    source: 'request',
    status,
    receivedAt: at,
    updatedAt: at,
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
    secretWarning: false,
  };
}

/** Desktop ports that record everything they are asked to do. */
export interface RecordingPorts {
  ports: DesktopPorts;
  shown: Array<{ request: NotificationRequest; review: () => void }>;
  badges: number[];
  trays: TrayModel[];
  themes: ThemePreference[];
  loginItems: boolean[];
  focused: number;
  quit: number;
  /** Clicks a tray menu entry, as the person would. */
  clickTray(id: TrayActionId): void;
}

/** Recording ports; `loginSupported` false makes the login item report "not supported". */
export function recordingPorts(opts: { loginSupported?: boolean; loginFails?: boolean } = {}): RecordingPorts {
  let trayHandler: ((id: TrayActionId) => void) | undefined;
  const rec: RecordingPorts = {
    shown: [],
    badges: [],
    trays: [],
    themes: [],
    loginItems: [],
    focused: 0,
    quit: 0,
    clickTray: (id) => trayHandler?.(id),
    ports: {
      notifier: { show: (request, review) => void rec.shown.push({ request, review }) },
      badge: { setCount: (n) => void rec.badges.push(n) },
      tray: { update: (m) => void rec.trays.push(m), onAction: (h) => void (trayHandler = h) },
      theme: { set: (t) => void rec.themes.push(t) },
      loginItem: {
        supported: () => (opts.loginSupported === false ? { ok: false, reason: ui('desktop.loginFromSource') } : { ok: true }),
        set: (on) => {
          if (opts.loginFails) throw new Error('access denied');
          rec.loginItems.push(on);
        },
      },
      focusWindow: () => void rec.focused++,
      quit: () => void rec.quit++,
    },
  };
  return rec;
}
