/**
 * Desktop life wired together for `createConsole`: the desktop settings service and the attention
 * service, and the two API methods they serve (`setDesktopSettings`, `sendTestNotification`).
 */
import type { ApiParsedInput, ApiResults } from '../../shared/contract/api.js';
import type { Logger } from '../ports.js';
import type { StateHub } from '../state-hub.js';
import { createDesktopSettingsService, type DesktopSettingsService } from '../settings/service.js';
import type { DesktopPorts } from './ports.js';
import { createAttentionService, type AttentionService } from './service.js';

/** What {@link createDesktopLife} needs from `createConsole`. */
export interface DesktopLifeDeps {
  dir: string;
  hub: StateHub;
  /** The host's desktop ports (none in the web host and tests). */
  ports?: DesktopPorts;
  logger: Logger;
  now(): number;
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  /** The policy's pause switch. */
  setAutoApprovalPaused(paused: boolean): void;
}

/** The API methods desktop life serves. */
export interface DesktopLifeMethods {
  setDesktopSettings(input: ApiParsedInput<'setDesktopSettings'>): Promise<ApiResults['setDesktopSettings']>;
  sendTestNotification(input: ApiParsedInput<'sendTestNotification'>): Promise<ApiResults['sendTestNotification']>;
}

/** The running pair. */
export interface DesktopLife {
  settings: DesktopSettingsService;
  attention: AttentionService;
  methods: DesktopLifeMethods;
  dispose(): void;
}

/** Starts desktop settings and attention (publishes the `desktop` and `attention` slices). Never throws. */
export function createDesktopLife(deps: DesktopLifeDeps): DesktopLife {
  const ports = deps.ports ?? {};
  for (const message of ports.notices ?? []) deps.notify('warning', message);
  const settings = createDesktopSettingsService({ dir: deps.dir, hub: deps.hub, ports, logger: deps.logger, notify: deps.notify });
  const attention = createAttentionService({
    hub: deps.hub,
    ports,
    settings: () => settings.current(),
    setDoNotDisturb: (on) => void settings.update({ doNotDisturb: on }),
    setAutoApprovalPaused: deps.setAutoApprovalPaused,
    now: deps.now,
    onError: (message) => deps.notify('error', message),
    ...(ports.locales ? { osLocales: () => ports.locales!() } : {}),
  });
  return {
    settings,
    attention,
    methods: {
      setDesktopSettings: async (input) => settings.update(input),
      sendTestNotification: async () => attention.testNotification(),
    },
    dispose: () => attention.dispose(),
  };
}
