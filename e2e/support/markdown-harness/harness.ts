// Exposes the renderer's markdown module to the browser spec that unit-tests the sanitiser.
import { renderMarkdown, sanitizeHtml } from '../../../renderer/markdown.js';

Object.assign(window, { markdownHarness: { renderMarkdown, sanitizeHtml } });
