/**
 * Web worker of the media previews (./media.tsx): decodes a long base64 payload off the page's
 * main thread (a 2 MB image: ~15 ms of decoding and copying into a Blob). Message in:
 * `{id, data, mimeType}`; out: `{id, valid, blob?}` — the Blob crosses back as a handle, not a copy.
 */
import { decodeBase64Strict } from './media-payload';

self.onmessage = (event: MessageEvent<{ id: number; data: string; mimeType: string }>) => {
  const { id, data, mimeType } = event.data;
  const bytes = decodeBase64Strict(data);
  self.postMessage({ id, valid: bytes !== null, ...(bytes && { blob: new Blob([bytes as BlobPart], { type: mimeType }) }) });
};
