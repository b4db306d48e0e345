import { describe, expect, it } from 'vitest';
import { scrubJson } from '../../shared/domain/redaction.js';

describe('history scrubbing leaves media payloads alone', () => {
  it('does not scan or change image/audio data, but still redacts text beside it', () => {
    // Base64 that happens to contain something e-mail-like must not be "redacted" (it is binary).
    const data = `${'A'.repeat(1024)}bob@example.com${'A'.repeat(1024)}`;
    const original = { messages: [{ role: 'user', content: [{ type: 'image', data, mimeType: 'image/png' }, { type: 'text', text: 'mail bob@example.com' }] }] };
    const out = scrubJson(original, () => true) as typeof original;
    expect(out.messages[0]!.content[0]).toBe(original.messages[0]!.content[0]);
    expect((out.messages[0]!.content[1] as { text: string }).text).not.toContain('bob@example.com');
  });
});
