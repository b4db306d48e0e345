/**
 * Media by reference through a real console: a request with a big image (the bench's queue
 * server, stdio) is opened with `getItem` without its image, the image comes with `getItemMedia`,
 * and the item put back together is the request main holds; the approved request reaches the
 * pipeline with the image whole, and a window that has it open is not sent it again. A tool_result
 * embedding a big binary resource travels the same way (its `blob` by reference).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_URI, queueServerConfig } from '../../bench/fixtures/queue-server.js';
import { ApiError } from '../../shared/contract/api.js';
import { MEDIA_REF_MIN_CHARS } from '../../shared/contract/media-refs.js';
import type { ItemView, SamplingItemView } from '../../shared/contract/state.js';
import { applyItemChange } from '../../shared/contract/state-patch.js';
import { fillMedia, mediaRefsIn, parseMediaRef } from '../../shared/domain/media-refs.js';
import { startHarness, type Harness } from '../support/console-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ servers: { q: queueServerConfig() } });
  await h.ready;
  await h.waitFor((s) => s.servers.some((v) => v.id === 'q' && v.status === 'ready'), 'the queue server', 30_000);
}, 60_000);

afterAll(async () => {
  await h?.dispose();
  if (h) rmSync(h.dir, { recursive: true, force: true });
});

/** `getItem` once a patch has published the item (the pipeline holds it a moment before). */
async function opened(id: string): ReturnType<Harness['service']['getItem']> {
  for (let i = 0; ; i++) {
    try {
      return await h.service.getItem({ id });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'not_found') || i === 100) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe('media by reference', () => {
  it('getItem leaves the big image out, getItemMedia brings it, and together they are the item main holds', async () => {
    await h.service.callTool({ serverId: 'q', name: 'big', arguments: { textBytes: 2_000, imageBytes: 600_000 } });
    const state = await h.waitFor((s) => s.items.some((i) => i.status === 'awaiting_request_review'), 'the big request', 30_000);
    const whole = state.items.find((i) => i.status === 'awaiting_request_review')!;
    const wholeImage = (whole.original.messages[0]!.content as Array<{ type: string; data?: string }>)[1]!.data!;
    expect(wholeImage.length).toBeGreaterThan(MEDIA_REF_MIN_CHARS);

    const { item, media } = await h.service.getItem({ id: whole.id });
    const refs = mediaRefsIn(item);
    expect(refs).toHaveLength(1);
    expect(media).toEqual([{ ref: refs[0], chars: wholeImage.length }]);
    expect(parseMediaRef(refs[0]!)?.chars).toBe(wholeImage.length);
    expect(JSON.stringify(item).length).toBeLessThan(10_000); // the text and the rest; not the image

    const { media: payloads } = await h.service.getItemMedia({ id: whole.id, refs: [refs[0]!, 'mcp-console-media:1:1:elsewhere'] });
    expect(payloads).toEqual([{ ref: refs[0], data: wholeImage }]); // unknown references are left out
    expect(fillMedia(item, new Map(payloads.map((p) => [p.ref, p.data])))).toEqual(whole);

    await expect(h.service.getItemMedia({ id: 'nope', refs: [refs[0]!] })).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.code === 'not_found');
  }, 60_000);

  it('a request approved with its image put back is sent whole; getItem then names the shared payload once', async () => {
    const whole = (await h.state()).items.find((i) => i.status === 'awaiting_request_review')!;
    const { item } = await h.service.getItem({ id: whole.id });
    const { media } = await h.service.getItemMedia({ id: whole.id, refs: mediaRefsIn(item) });
    const params = fillMedia((item as SamplingItemView).original, new Map(media.map((p) => [p.ref, p.data])));
    let open: ItemView = fillMedia(item, new Map(media.map((p) => [p.ref, p.data]))); // the window's copy
    const wire: string[] = [];
    const off = h.service.onEvent((e) => {
      wire.push(JSON.stringify(e)); // as it crosses the boundary
      if (e.type === 'patch') for (const c of e.patch.details ?? []) if (c.id === whole.id) open = applyItemChange(open, c);
    });
    await h.service.approveRequest({ itemId: whole.id, version: whole.contentVersion!, params, model: { providerId: 'manual', modelId: 'manual' } });
    const approved = await h.waitFor((s) => s.items.some((i) => i.id === whole.id && i.sent !== undefined && i.status === 'awaiting_response_review'), 'the approval');
    for (let i = 0; i < 100 && (open as SamplingItemView).status !== 'awaiting_response_review'; i++) await new Promise((r) => setTimeout(r, 20)); // its patches going out
    off();
    expect(approved.items.find((i) => i.id === whole.id)!.sent).toEqual(whole.original);
    // Approved as it came: the window is told the request sent is the original it has, not sent the 800 KB image again.
    expect(wire.join('').length).toBeLessThan(20_000);
    expect(wire.join('')).toContain('"same":{"sent":"original"}');
    expect(open).toEqual(approved.items.find((i) => i.id === whole.id));
    let after = await h.service.getItem({ id: whole.id });
    for (let i = 0; i < 100 && !(after.item as SamplingItemView).sent; i++) {
      await new Promise((r) => setTimeout(r, 20)); // the approval's patch has not gone out yet
      after = await h.service.getItem({ id: whole.id });
    }
    expect(after.media).toHaveLength(1); // the original and the approved request hold one payload
    expect(mediaRefsIn((after.item as SamplingItemView).sent)).toEqual(mediaRefsIn((after.item as SamplingItemView).original));
  }, 60_000);

  it('a tool_result embedding a 1 MB binary resource: getItem sends its blob by reference, the approval sends it whole', async () => {
    await h.service.callTool({ serverId: 'q', name: 'attachment', arguments: { blobBytes: 1_000_000 } });
    // Waits for its version too: a request this big is hashed in slices after it is queued.
    const holds = (i: SamplingItemView) => i.status === 'awaiting_request_review' && i.contentVersion !== undefined && JSON.stringify(i.original.messages[2]).includes(ATTACHMENT_URI);
    const whole = (await h.waitFor((s) => s.items.some(holds), 'the attachment request', 30_000)).items.find(holds)!;
    const blob = (whole.original.messages[2]!.content as unknown as Array<{ content: Array<{ resource: { blob: string } }> }>)[0]!.content[0]!.resource.blob;

    const { item, media } = await opened(whole.id);
    const refs = mediaRefsIn(item);
    expect(media).toEqual([{ ref: refs[0], chars: blob.length }]);
    expect(parseMediaRef(refs[0]!)?.bytes).toBe(1_000_000);
    expect(JSON.stringify(item).length).toBeLessThan(10_000);

    const { media: payloads } = await h.service.getItemMedia({ id: whole.id, refs });
    const filled = fillMedia(item as SamplingItemView, new Map(payloads.map((p) => [p.ref, p.data])));
    expect(filled).toEqual(whole);
    await h.service.approveRequest({ itemId: whole.id, version: whole.contentVersion!, params: filled.original, model: { providerId: 'manual', modelId: 'manual' } });
    const approved = await h.waitFor((s) => s.items.some((i) => i.id === whole.id && i.status === 'awaiting_response_review'), 'the approval');
    expect((approved.items.find((i) => i.id === whole.id) as SamplingItemView).sent).toEqual(whole.original);
  }, 60_000);
});

describe('history entries: media by reference', () => {
  it("getHistoryEntry with media 'by-ref' leaves the image out, getHistoryMedia brings it, together the entry as stored", async () => {
    const page = await h.service.listHistory({ limit: 10, offset: 0 });
    const withImage = page.entries.find((e) => e.preview.startsWith('BIG PROMPT'));
    expect(withImage).toBeDefined();
    const whole = (await h.service.getHistoryEntry({ id: withImage!.id }))!;
    const byRef = (await h.service.getHistoryEntry({ id: withImage!.id, media: 'by-ref' }))!;
    expect(JSON.stringify(whole).length).toBeGreaterThan(MEDIA_REF_MIN_CHARS);
    expect(JSON.stringify(byRef).length).toBeLessThan(20_000);
    const refs = mediaRefsIn(byRef);
    expect(refs).toHaveLength(1); // the image as asked and as sent: one payload
    const { media } = await h.service.getHistoryMedia({ id: withImage!.id, refs: [...refs, 'mcp-console-media:1:1:elsewhere'] });
    expect(media.map((m) => m.ref)).toEqual(refs);
    expect(fillMedia(byRef, new Map(media.map((m) => [m.ref, m.data])))).toEqual(whole);
    await expect(h.service.getHistoryMedia({ id: 'nope', refs })).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.code === 'not_found');
  }, 60_000);

});
