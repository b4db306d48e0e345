/**
 * Browser unit test of renderer/markdown.tsx: server-supplied text must never become live HTML.
 * Layer 1 (marked renders raw HTML as visible text) and layer 2 (DOMPurify) are tested separately.
 */
import { expect, test, type Page } from '@playwright/test';
import { buildMarkdownHarness } from '../support/build-harness.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

let server: StaticServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await serveStatic(await buildMarkdownHarness());
});
test.afterAll(async () => server?.close());

interface Harness {
  renderMarkdown(text: string): string;
  sanitizeHtml(html: string): string;
}

/** Renders with `fn` in the page, mounts the HTML, and describes what ended up in the DOM. */
async function mount(page: Page, fn: 'renderMarkdown' | 'sanitizeHtml', input: string) {
  return page.evaluate(
    ([name, text]) => {
      const h = (window as unknown as { markdownHarness: Harness }).markdownHarness;
      const html = h[name](text);
      const out = document.getElementById('out')!;
      out.innerHTML = html;
      const attrs = [...out.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => `${el.tagName.toLowerCase()}[${a.name}=${a.value}]`));
      return {
        html,
        text: out.textContent ?? '',
        tags: [...out.querySelectorAll('*')].map((el) => el.tagName.toLowerCase()),
        attrs,
      };
    },
    [fn, input] as const,
  );
}

test.beforeEach(async ({ page }) => {
  page.on('dialog', (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
  await page.goto(server.url);
  await page.waitForFunction(() => 'markdownHarness' in window);
});

test('raw HTML in server text is shown as text, never as elements', async ({ page }) => {
  const r = await mount(page, 'renderMarkdown', 'Hello **there**\n\n<img src=x onerror=alert(1)>\n\n<script>alert(2)</script>\n\ninline <b onclick="alert(3)">b</b>');
  expect(r.tags).toContain('strong'); // Markdown still works
  expect(r.tags).not.toContain('img');
  expect(r.tags).not.toContain('script');
  expect(r.tags).not.toContain('b');
  expect(r.attrs.filter((a) => a.includes('onerror') || a.includes('onclick'))).toEqual([]);
  expect(r.text).toContain('<img src=x onerror=alert(1)>');
  expect(r.text).toContain('<script>alert(2)</script>');
  await page.waitForTimeout(100);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('DOMPurify strips scripts, handlers, javascript: links and remote images', async ({ page }) => {
  const r = await mount(
    page,
    'sanitizeHtml',
    '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><a href="javascript:alert(1)">j</a>' +
      '<a href="https://example.com/x">ok</a><svg><script>alert(1)</script></svg><iframe src="https://evil"></iframe>' +
      '<p style="display:none">hidden</p><form action="https://evil"><input name=a></form>',
  );
  expect(r.tags).not.toContain('script');
  expect(r.tags).not.toContain('iframe');
  expect(r.tags).not.toContain('form');
  expect(r.tags).not.toContain('input');
  expect(r.attrs.filter((a) => /onerror|onclick|style|javascript:|src=x/.test(a))).toEqual([]);
  expect(r.attrs).toContain('a[target=_blank]');
  expect(r.attrs).toContain('a[rel=noopener noreferrer]');
  expect(r.attrs).toContain('a[href=https://example.com/x]');
  await page.waitForTimeout(100);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test('Markdown links open safely; link definitions are shown; data: images survive', async ({ page }) => {
  const r = await mount(page, 'renderMarkdown', '[docs](https://example.com) and [bad](javascript:alert(1))\n\n[hidden]: https://evil.example/track\n\n![dot](data:image/png;base64,iVBORw0KGgo=)');
  expect(r.attrs).toContain('a[href=https://example.com]');
  expect(r.attrs).toContain('a[rel=noopener noreferrer]');
  expect(r.attrs.filter((a) => a.includes('javascript:'))).toEqual([]);
  expect(r.text).toContain('[hidden]: https://evil.example/track');
  expect(r.attrs).toContain('img[src=data:image/png;base64,iVBORw0KGgo=]');
});
