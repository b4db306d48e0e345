/**
 * Web worker of {@link useSensitiveFindings}: runs shared/domain/sensitive-data.ts's `detectSensitive` off the
 * main thread for long texts (a megabyte of log lines takes about a second, mostly in the phone
 * number matcher). Message in: `{id, text, options}`; out: `{id, findings}` (or `{id, error}`).
 */
import { detectSensitive, type DetectOptions } from '../../shared/domain/sensitive-data';

self.onmessage = (event: MessageEvent<{ id: number; text: string; options: DetectOptions }>) => {
  const { id, text, options } = event.data;
  try {
    self.postMessage({ id, findings: detectSensitive(text, options) });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
