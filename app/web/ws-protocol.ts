/**
 * The web host's WebSocket protocol (JSON text frames), server side.
 *
 * - client → server: `{"id": number, "method": string, "input"?: unknown}`
 * - server → client: `{"id": number, "reply": ApiReply}` — exactly one per request, same `id`
 * - server → client: `{"event": ConsoleEvent}` — the service's event stream, in order
 *
 * Every inbound frame is parsed with zod. A frame that is valid JSON with a usable `id` but a bad
 * shape gets an `invalid_input` reply for that id; anything else (binary frame, not JSON, no id)
 * closes the socket with 1008 (policy violation). The input itself is validated by
 * {@link dispatch} against `apiRequests`, exactly as over Electron IPC.
 */
import { z } from 'zod';
import type { WebSocket } from 'ws';
import type { ApiReply, ConsoleEvent, ConsoleService } from '../../shared/contract/api.js';
import { dispatch } from '../../main/api/dispatch.js';
import { stringifyWithLongStrings } from './frame-json.js';

/** Schema of one client → server frame. */
export const ClientFrameSchema = z
  .object({
    id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    method: z.string().min(1).max(200),
    input: z.unknown().optional(),
  })
  .strict();

/** One client → server frame. */
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/** One server → client frame. */
export type ServerFrame = { id: number; reply: ApiReply } | { event: ConsoleEvent };

/** Close code sent for malformed frames (RFC 6455 policy violation). */
export const CLOSE_POLICY_VIOLATION = 1008;

/** Methods whose reply may hold a whole item, its media or a history entry: megabytes of prompt and media. */
const WHOLE_ITEM_METHODS: ReadonlySet<string> = new Set(['getItem', 'getItemMedia', 'getCallMedia', 'getHistoryEntry', 'getHistoryMedia']);

/** Outbound bytes a client may leave unread before it is dropped (events pile up otherwise). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/**
 * Serves one accepted WebSocket: forwards the service's events, answers requests through
 * {@link dispatch}, and unsubscribes when the socket closes. Never throws; a reply that cannot be
 * serialised becomes an `internal` error reply.
 *
 * @param socket an open `ws` socket that already passed the token, Host and Origin checks.
 * @param service the console service requests are dispatched to.
 * @param onError receives unexpected errors for logging (never secrets).
 */
export function serveConnection(socket: WebSocket, service: ConsoleService, onError: (err: unknown) => void = () => {}): void {
  /** Sends `frame`; `whole`: a reply that may carry a whole item (frame-json.ts writes its long strings). */
  const send = (frame: ServerFrame, whole = false): void => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    let text: string;
    try {
      text = whole ? stringifyWithLongStrings(frame) : JSON.stringify(frame);
    } catch (err) {
      if (!('id' in frame)) return onError(err);
      text = JSON.stringify({
        id: frame.id,
        reply: { ok: false, error: { code: 'internal', message: 'reply could not be serialised' } },
      } satisfies ServerFrame);
    }
    socket.send(text, (err) => {
      if (err) onError(err);
    });
  };

  let unsubscribe: (() => void) | null = null;
  try {
    unsubscribe = service.onEvent((event) => send({ event }));
  } catch (err) {
    onError(err);
  }
  socket.on('close', () => {
    unsubscribe?.();
    unsubscribe = null;
  });
  socket.on('error', onError);

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      socket.close(CLOSE_POLICY_VIOLATION, 'binary frames are not accepted');
      return;
    }
    const frame = parseClientFrame(rawToString(data));
    if (frame.kind === 'close') {
      socket.close(CLOSE_POLICY_VIOLATION, frame.reason);
      return;
    }
    if (frame.kind === 'invalid') {
      send({ id: frame.id, reply: { ok: false, error: { code: 'invalid_input', message: frame.message } } });
      return;
    }
    const { id, method, input } = frame.frame;
    dispatch(service, method, input).then(
      (reply) => send({ id, reply }, WHOLE_ITEM_METHODS.has(method)),
      (err: unknown) => send({ id, reply: { ok: false, error: { code: 'internal', message: String(err) } } }),
    );
  });
}

/**
 * Parses one text frame.
 * @returns `ok` with the frame; `invalid` (reply with an error for `id`) when the JSON carries a
 *   usable id but the frame has the wrong shape; `close` when there is nothing to reply to.
 */
export function parseClientFrame(
  text: string,
): { kind: 'ok'; frame: ClientFrame } | { kind: 'invalid'; id: number; message: string } | { kind: 'close'; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'close', reason: 'frame is not JSON' };
  }
  const parsed = ClientFrameSchema.safeParse(json);
  if (parsed.success) return { kind: 'ok', frame: parsed.data };
  const id = ClientFrameSchema.shape.id.safeParse(typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined);
  if (!id.success) return { kind: 'close', reason: 'frame has no valid id' };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length ? `${issue.path.join('.')}: ` : '';
  return { kind: 'invalid', id: id.data, message: `malformed frame: ${where}${issue?.message ?? 'invalid'}` };
}

function rawToString(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
