/**
 * Image and audio blocks: a preview (only for plain, known MIME types and valid base64), the MIME
 * type, the decoded size and, for audio, the duration (from the WAV header when there is one, else
 * from the player's metadata). In an editor, a Remove/Restore toggle.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { base64DecodedBytes } from '../../shared/domain/base64';
import { parseMediaRef } from '../../shared/domain/media-refs';
import { formatBytes } from '../../shared/domain/validate-sampling';
import { i18n } from '../i18n';
import { decodeBase64Strict } from './media-payload';
import { workerJobs } from './worker-jobs';
import './review.css';

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp|svg\+xml|avif)$/i;
const AUDIO_MIME = /^audio\/[a-z0-9.+-]+$/i;

/**
 * Per payload (by the base64 string itself; the same string object on every render, so a lookup
 * does not rescan it): whether it is valid base64 (`undefined` while the media worker decodes
 * it), and a `blob:` URL of its bytes for previews. A review re-renders on every keystroke;
 * rescanning and re-encoding a multi-megabyte image each time cost ~60 ms per keystroke (`npm run
 * bench`, renderer scenario). Object URLs instead of `data:` URIs keep the megabytes out of the
 * DOM. The 16 most recent payloads are kept; older URLs are revoked.
 */
interface Payload {
  valid?: boolean;
  url?: string;
  bytes?: Uint8Array;
  /** A pending payload was handed to the media worker (or decoded here when it cannot run). */
  sent?: boolean;
}
const payloads = new Map<string, Payload>();
const PAYLOADS_KEPT = 16;

/**
 * Payloads at least this long (base64 characters, ~190 KB decoded) are decoded on the media worker
 * (./media-worker.ts), so opening a request with a big image does not wait for it; shorter ones
 * at once (well under a millisecond). A big payload is handed to the worker after its block is
 * painted (starting the worker and copying megabytes to it cost ~8 ms of the first paint).
 */
export const WORKER_DECODE_CHARS = 256 * 1024;

/** Bumped when the worker finishes a payload; media blocks re-render then. */
let decoded = 0;
const listeners = new Set<() => void>();
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => void listeners.delete(fn);
};

/** The media worker's jobs: each the payload it decodes. */
const decoder = workerJobs<string, { id: number; valid: boolean; blob?: Blob }>(
  () => new Worker(new URL('./media-worker.ts', import.meta.url), { type: 'module' }),
  (data, answer) => settle(data, answer.valid, answer.blob),
  // The worker cannot run here: decode what it was given on this thread.
  (left) => setTimeout(() => left.forEach((data) => settle(data, decodeNow(data).valid === true)), 0),
);

/** Stores `info` for `data` as the most recent payload, revoking the URL of the oldest beyond {@link PAYLOADS_KEPT}. */
function keep(data: string, info: Payload): Payload {
  payloads.delete(data);
  payloads.set(data, info);
  if (payloads.size > PAYLOADS_KEPT) {
    const [oldest, old] = payloads.entries().next().value!;
    if (old.url) URL.revokeObjectURL(old.url);
    payloads.delete(oldest);
  }
  return info;
}

/** A payload decoded here and now. */
function decodeNow(data: string): Payload {
  const bytes = decodeBase64Strict(data);
  return bytes ? { valid: true, bytes } : { valid: false };
}

/** The worker's answer (or this thread's, when it cannot run) for a payload still shown. */
function settle(data: string, valid: boolean, blob?: Blob): void {
  if (!payloads.has(data) || payloads.get(data)!.valid !== undefined) return; // evicted meanwhile
  const url = blob && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : undefined;
  keep(data, url ? { valid, url } : valid ? decodeNow(data) : { valid: false });
  decoded++;
  listeners.forEach((l) => l());
}

/** What is known of `data`: a big payload not seen before is pending ({@link sendToWorker} hands it over). */
function payloadInfo(data: string): Payload {
  const known = payloads.get(data);
  if (known) return keep(data, known); // most recent last
  return keep(data, data.length >= WORKER_DECODE_CHARS ? {} : decodeNow(data));
}

/** Hands a pending payload to the media worker, once; decodes it here when no worker can run. */
function sendToWorker(data: string, mimeType: string): void {
  const info = payloads.get(data);
  if (!info || info.valid !== undefined || info.sent) return;
  info.sent = true;
  if (decoder.post(data, { data, mimeType })) return;
  keep(data, decodeNow(data));
  decoded++;
  listeners.forEach((l) => l());
}

/** A `blob:` URL of a valid payload (created once per payload), or a `data:` URI where object URLs are unavailable. */
function previewUrl(data: string, mimeType: string, info: Payload): string {
  if (info.url) return info.url;
  if (typeof URL.createObjectURL !== 'function' || !info.bytes) return `data:${mimeType};base64,${data}`;
  info.url = URL.createObjectURL(new Blob([info.bytes as BlobPart], { type: mimeType }));
  info.bytes = undefined;
  return info.url;
}

/**
 * Duration in seconds of a RIFF/WAVE file given as base64, from its `fmt ` byte rate and `data`
 * chunk size (only the first 4 KB are decoded). `undefined` when the header is not a readable WAV.
 */
export function wavDurationSeconds(base64: string): number | undefined {
  let bytes: Uint8Array;
  try {
    const head = atob(base64.slice(0, 5464)); // 4098 bytes, a multiple of 4 characters
    bytes = Uint8Array.from(head, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  const view = new DataView(bytes.buffer);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ' && at + 16 <= bytes.length) byteRate = view.getUint32(at + 16, true);
    if (tag(at) === 'data') return byteRate ? size / byteRate : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** "0.50 s", "1 m 03 s" (Chinese "0.50 秒", "1 分 03 秒"): an audio length (`seconds`) for people. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return i18n.t('common:duration.s', { s: seconds.toFixed(2) });
  return i18n.t('common:duration.ms_s', { m: Math.floor(seconds / 60), s: String(Math.round(seconds % 60)).padStart(2, '0') });
}

/** What a block whose payload is still on its way shows (no preview, "loading"). */
const ARRIVING: Payload = {};

/** Per-block editing hooks a request editor passes down: leaving a block out (image, audio, an embedded resource). */
export interface BlockEditing {
  /** Whether the block is marked for removal (shown as removed, not previewed). */
  removed?: boolean;
  /** Toggles removal. */
  onToggleRemove?: () => void;
  /** Accessible name of the block for the Remove button, e.g. "image in message 1". */
  label?: string;
}

/** Props of {@link MediaBlock}. */
export interface MediaBlockProps extends BlockEditing {
  kind: 'image' | 'audio';
  /** base64, or a reference to a payload the window is still fetching (shared/contract/media-refs.ts) */
  data: string;
  mimeType: string;
  testId?: string;
}

/** An image or audio block. */
export function MediaBlock({ kind, data, mimeType, removed, onToggleRemove, label, testId }: MediaBlockProps) {
  const { t } = useTranslation('common');
  useSyncExternalStore(subscribe, () => decoded);
  const arriving = parseMediaRef(data);
  const info = arriving ? ARRIVING : payloadInfo(data);
  useEffect(() => (info === ARRIVING ? undefined : sendToWorker(data, mimeType)), [data, mimeType, info]);
  const valid = info.valid;
  const [loadedSeconds, setLoadedSeconds] = useState<number | undefined>(undefined);
  const headerSeconds = kind === 'audio' && valid ? wavDurationSeconds(data) : undefined;
  const seconds = headerSeconds ?? loadedSeconds;
  const meta = (
    <span className="media-meta" data-testid="media-meta">
      {kind} · {mimeType} · {formatBytes(arriving?.bytes ?? base64DecodedBytes(data))}
      {kind === 'audio' && <span data-testid="audio-duration"> · {seconds === undefined ? t('media.durationUnknown') : formatSeconds(seconds)}</span>}
    </span>
  );
  const remove = onToggleRemove && <RemoveToggle removed={removed === true} label={label ?? kind} onToggle={onToggleRemove} />;
  let preview = null;
  if (!removed && valid && kind === 'image' && IMAGE_MIME.test(mimeType)) {
    preview = <img src={previewUrl(data, mimeType, info)} decoding="async" alt={t('media.image', { mime: mimeType })} />;
  } else if (!removed && valid && kind === 'audio' && AUDIO_MIME.test(mimeType)) {
    preview = (
      <audio
        controls
        preload="metadata"
        src={previewUrl(data, mimeType, info)}
        aria-label={t('media.audio', { mime: mimeType })}
        onLoadedMetadata={(e) => setLoadedSeconds(e.currentTarget.duration)}
      />
    );
  }
  return (
    <figure className={`media${removed ? ' is-removed' : ''}${preview ? '' : ' media-unshown'}`} data-testid={testId ?? `media-${kind}`} data-removed={removed ? 'true' : undefined}>
      {preview}
      <figcaption className="media-caption">
        {meta}
        {removed && <span className="badge tone-warn">{t('media.removed')}</span>}
        {!removed && !preview && <span className="muted small">{arriving ? t('media.loading') : valid === undefined ? t('media.decoding') : valid ? t('media.notPreviewed') : t('media.notBase64')}</span>}
        {remove}
      </figcaption>
    </figure>
  );
}

/** Remove / Restore for a block the person may leave out of the request (media, an embedded resource). */
export function RemoveToggle({ removed, label, onToggle }: { removed: boolean; label: string; onToggle: () => void }) {
  const { t } = useTranslation('common');
  return (
    <button type="button" className="btn-small" data-testid="media-remove" aria-label={removed ? t('media.restoreLabel', { label }) : t('media.removeLabel', { label })} onClick={onToggle}>
      {removed ? t('media.restore') : t('media.remove')}
    </button>
  );
}
