/**
 * Image and audio blocks: a preview (only for plain, known MIME types and valid base64), the MIME
 * type, the decoded size and, for audio, the duration (from the WAV header when there is one, else
 * from the player's metadata). In an editor, a Remove/Restore toggle.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../shared/domain/validate-sampling';
import { i18n } from '../i18n';
import './review.css';

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp|svg\+xml|avif)$/i;
const AUDIO_MIME = /^audio\/[a-z0-9.+-]+$/i;

/**
 * Whether `data` is strict padded base64, checked in one linear pass (a regular expression over a
 * multi-megabyte string can exhaust the stack).
 */
export function isBase64Safe(data: string): boolean {
  if (data.length % 4 !== 0) return false;
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  for (let i = 0; i < data.length - pad; i++) {
    const c = data.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (!ok) return false;
  }
  return true;
}

/**
 * Per payload (by the base64 string itself; the same string object on every render, so a lookup
 * does not rescan it): whether it is valid base64, and a `blob:` URL of its bytes for previews.
 * A review re-renders on every keystroke; rescanning and re-encoding a multi-megabyte image each
 * time cost ~60 ms per keystroke (`npm run bench`, renderer scenario). Object URLs instead of
 * `data:` URIs keep the megabytes out of the DOM. The 16 most recent payloads are kept; older
 * URLs are revoked.
 */
const payloads = new Map<string, { valid: boolean; url?: string; bytes?: Uint8Array }>();
const PAYLOADS_KEPT = 16;

/** The browser's native strict decoder (`Uint8Array.fromBase64`), where there is one. */
const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string, o: { lastChunkHandling: 'loose' }) => Uint8Array }).fromBase64;

/**
 * Strict padded base64 decoded natively (~10× faster than checking it in JS, which took ~35 ms for
 * a 2 MB image), or null when invalid; undefined where the decoder does not exist. `fromBase64`
 * skips ASCII whitespace, which strict base64 does not allow, hence the extra check.
 */
function decodeNatively(data: string): Uint8Array | null | undefined {
  if (!fromBase64) return undefined;
  if (data.length % 4 !== 0 || /[\t\n\f\r ]/.test(data)) return null;
  try {
    return fromBase64(data, { lastChunkHandling: 'loose' }); // padding is checked above (length), like isBase64Safe
  } catch {
    return null;
  }
}

function payloadInfo(data: string): { valid: boolean; url?: string; bytes?: Uint8Array } {
  let info = payloads.get(data);
  if (info) {
    payloads.delete(data); // most recent last
    payloads.set(data, info);
    return info;
  }
  const decoded = decodeNatively(data);
  info = decoded === undefined ? { valid: isBase64Safe(data) } : decoded === null ? { valid: false } : { valid: true, bytes: decoded };
  payloads.set(data, info);
  if (payloads.size > PAYLOADS_KEPT) {
    const [oldest, old] = payloads.entries().next().value!;
    if (old.url) URL.revokeObjectURL(old.url);
    payloads.delete(oldest);
  }
  return info;
}

/** A `blob:` URL of the payload (created once per payload), or a `data:` URI where object URLs are unavailable. */
function previewUrl(data: string, mimeType: string): string {
  const info = payloadInfo(data);
  if (info.url) return info.url;
  if (typeof URL.createObjectURL !== 'function') return `data:${mimeType};base64,${data}`;
  let bytes = info.bytes;
  if (!bytes) {
    const binary = atob(data);
    bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  }
  info.bytes = undefined;
  info.url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: mimeType }));
  return info.url;
}

/** Decoded size in bytes of base64 `data` (an estimate when it is not valid base64). */
export function decodedBytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
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

/** Props of {@link MediaBlock}. */
export interface MediaBlockProps {
  kind: 'image' | 'audio';
  /** base64 */
  data: string;
  mimeType: string;
  /** In an editor: the block is marked for removal (shown struck out, not previewed). */
  removed?: boolean;
  /** In an editor: toggles removal. */
  onToggleRemove?: () => void;
  /** Accessible name of the block for the Remove button, e.g. "image in message 1". */
  label?: string;
  testId?: string;
}

/** An image or audio block. */
export function MediaBlock({ kind, data, mimeType, removed, onToggleRemove, label, testId }: MediaBlockProps) {
  const { t } = useTranslation('common');
  const valid = payloadInfo(data).valid;
  const [loadedSeconds, setLoadedSeconds] = useState<number | undefined>(undefined);
  const headerSeconds = kind === 'audio' && valid ? wavDurationSeconds(data) : undefined;
  const seconds = headerSeconds ?? loadedSeconds;
  const meta = (
    <span className="media-meta" data-testid="media-meta">
      {kind} · {mimeType} · {formatBytes(decodedBytes(data))}
      {kind === 'audio' && <span data-testid="audio-duration"> · {seconds === undefined ? t('media.durationUnknown') : formatSeconds(seconds)}</span>}
    </span>
  );
  const remove = onToggleRemove && (
    <button
      type="button"
      className="btn-small"
      data-testid="media-remove"
      aria-label={removed ? t('media.restoreLabel', { label: label ?? kind }) : t('media.removeLabel', { label: label ?? kind })}
      onClick={onToggleRemove}
    >
      {removed ? t('media.restore') : t('media.remove')}
    </button>
  );
  let preview = null;
  if (!removed && valid && kind === 'image' && IMAGE_MIME.test(mimeType)) {
    preview = <img src={previewUrl(data, mimeType)} decoding="async" alt={t('media.image', { mime: mimeType })} />;
  } else if (!removed && valid && kind === 'audio' && AUDIO_MIME.test(mimeType)) {
    preview = (
      <audio
        controls
        preload="metadata"
        src={previewUrl(data, mimeType)}
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
        {!removed && !preview && <span className="muted small">{valid ? t('media.notPreviewed') : t('media.notBase64')}</span>}
        {remove}
      </figcaption>
    </figure>
  );
}
