import { describe, expect, it } from 'vitest';
import { ApiError, BRIDGE_UI_MARK, type ConsoleApi } from '../../shared/contract/api.js';
import { ui } from '../../shared/contract/ui-text.js';
import { API_METHODS } from '../../shared/contract/api-methods.js';
import { encodeBridgeError } from '../../app/electron/bridge-error.js';
import { decodeBridgeError } from '../../renderer/api/bridge-errors.js';
import { fromElectronBridge } from '../../renderer/api/index.js';

/** What contextBridge does to a rejection: only the message survives. */
const acrossBridge = (err: Error) => new Error(err.message);

describe('errors across contextBridge', () => {
  it('keep their ApiError code through encode → bridge → decode', () => {
    for (const code of ['invalid_input', 'unknown_method', 'not_found', 'invalid_state', 'internal'] as const) {
      const back = decodeBridgeError(acrossBridge(encodeBridgeError(new ApiError(code, `msg [x]\nline 2`))));
      expect(back).toBeInstanceOf(ApiError);
      expect(back.code).toBe(code);
      expect(back.message).toBe('msg [x]\nline 2');
    }
  });

  it("keep main's message code (translated in the renderer) beside the English", () => {
    const why = ui('outcome.rejectedWhy', { reason: 'a [bracket] and\nlines' });
    const back = decodeBridgeError(acrossBridge(encodeBridgeError(new ApiError('invalid_state', why))));
    expect(back).toMatchObject({ code: 'invalid_state', message: 'Rejected by the person: a [bracket] and\nlines', ui: why });
    // A mark followed by something that is not a code leaves the English alone.
    expect(decodeBridgeError(new Error(`[not_found] gone${BRIDGE_UI_MARK}{"x":1}`))).toMatchObject({ code: 'not_found', message: 'gone', ui: undefined });
  });

  it('survive a prefix added by the bridge, and map anything else to internal', () => {
    expect(decodeBridgeError(new Error("Error invoking remote method 'x': [not_found] gone"))).toMatchObject({ code: 'not_found', message: 'gone' });
    expect(decodeBridgeError(new Error('[bogus_code] x'))).toMatchObject({ code: 'internal', message: '[bogus_code] x' });
    expect(decodeBridgeError('plain')).toMatchObject({ code: 'internal', message: 'plain' });
    expect(encodeBridgeError(42).message).toBe('[internal] 42');
  });

  it('fromElectronBridge gives ApiErrors with codes and passes values and events through', async () => {
    const listeners: Array<(e: unknown) => void> = [];
    const bridge: Record<string, unknown> = {
      onEvent: (l: (e: unknown) => void) => {
        listeners.push(l);
        return () => {};
      },
    };
    for (const m of API_METHODS) bridge[m] = async () => ({ method: m });
    bridge.rejectRequest = async () => {
      throw acrossBridge(encodeBridgeError(new ApiError('invalid_state', 'already decided')));
    };
    const api = fromElectronBridge(bridge as ConsoleApi);
    await expect(api.listHistory({})).resolves.toEqual({ method: 'listHistory' });
    await expect(api.rejectRequest({ itemId: 'a', version: 'a'.repeat(64) })).rejects.toMatchObject({ name: 'ApiError', code: 'invalid_state', message: 'already decided' });
    const got: unknown[] = [];
    api.onEvent((e) => got.push(e));
    listeners[0]!({ type: 'patch', patch: { version: 1 } });
    expect(got).toEqual([{ type: 'patch', patch: { version: 1 } }]);
  });
});
