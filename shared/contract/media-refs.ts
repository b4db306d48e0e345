/**
 * Media by reference: how a whole item crosses the boundary without its big image and audio
 * payloads and resource blobs. `getItem` sends each image/audio block's base64 `data`, and each
 * resource's base64 `blob` (an embedded resource in a tool_result), that is at least
 * {@link MEDIA_REF_MIN_CHARS} long with a reference in place of the data (a short string that is
 * never valid base64, made by shared/domain/media-refs.ts) and lists the references in its reply;
 * the window shows the review at once and fetches the payloads with `getItemMedia` (docs/architecture.md,
 * "State over the boundary"). The `calls` slice holds a call's big result media — and its long texts, with a
 * reference of their own — the same way, fetched with `getCallMedia`, and
 * `getHistoryEntry({media: 'by-ref'})` a history entry's, fetched with `getHistoryMedia`. Plain data.
 */

/**
 * Image/audio payloads and resource blobs at least this long (base64 characters, ~190 KB decoded)
 * leave `getItem` by reference (and a call's texts at least this long the `calls` slice). A
 * request with a 2 MB image otherwise made its review wait for ~2.7 MB more JSON to be written,
 * sent and parsed (`npm run bench`, renderer scenario, `p3.big_review_open_ms`).
 */
export const MEDIA_REF_MIN_CHARS = 256 * 1024;

/** One payload `getItem` left out: the reference that stands in its block's `data`, and its size. */
export interface MediaRef {
  /** What the block's `data` holds instead of the payload (see shared/domain/media-refs.ts). */
  ref: string;
  /** Length of the payload (base64 characters). */
  chars: number;
}

/** One payload `getItemMedia`, `getCallMedia` or `getHistoryMedia` sends: the reference it replaces and the data (base64; a call's long text as it is). */
export interface MediaPayload {
  ref: string;
  data: string;
}
