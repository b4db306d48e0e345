/**
 * Realistic, deterministic history entries for the benchmark: sessions of 1–3 requests from a
 * handful of servers and tools, English prompts, system prompts and responses whose words follow a
 * Zipf-like distribution (a few words everywhere, most words rare), edits, rejections, errors,
 * token usage, and an occasional image. Same seed, same corpus.
 */
import type { CreateMessageParams, CreateMessageResult, SamplingMessage } from '../shared/contract/sampling.js';
import type { HistoryEntry, SamplingStatus } from '../shared/contract/state.js';

const COMMON =
  `the of and to a in is you that it for on with as this be at by from or have an they which one can
  your all were we when there use each how said she do their time if will way about many then them would
  like so these her long make thing see him two has look more day could go come did number sound no most
  people my over know water than call first who may down side been now find any new work part take get
  place made live where after back little only round man year came show every good me give our under`.split(/\s+/);

const DOMAIN =
  `summarise release notes customer ticket invoice refund order shipment database query migration schema
  index latency error timeout retry deploy rollback incident postmortem dashboard metric alert budget
  forecast revenue churn cohort funnel campaign newsletter draft email reply meeting agenda minutes
  contract clause liability warranty policy compliance audit vendor procurement pricing discount quote
  translate french german spanish japanese portuguese paragraph sentence tone formal friendly concise
  repository branch commit review pull request diff test flaky coverage build pipeline container image
  kubernetes cluster node pod secret certificate domain dns cache memory cpu disk quota backup restore
  weather forecast temperature rainfall storm coastal harbour ferry schedule train platform delay route
  recipe ingredient oven flour butter sugar pastry dough knead bake simmer garnish portion allergen`.split(/\s+/);

const SYSTEM_PROMPTS = [
  'You are a helpful test server.',
  'You are a precise technical writer. Answer in plain English.',
  'You are a support agent for an online shop. Be polite and brief.',
  'Summarise faithfully; never invent facts that are not in the input.',
  'You translate text and keep its formatting.',
  'You are a code reviewer. Point out bugs first, style last.',
  'Answer with a JSON object only.',
  'You are a scheduling assistant for a small team.',
];

const SERVERS = ['everything', 'github', 'filesystem', 'postgres', 'slack', 'weather', 'kitchen', 'billing'];
const TOOLS = ['tools/call trigger-sampling-request', 'tools/call summarise', 'tools/call draft_reply', 'prompts/get review'];
const MODELS: Array<[string, string]> = [
  ['ollama', 'llama3.2'],
  ['openai', 'gpt-4o-mini'],
  ['openrouter', 'anthropic/claude-sonnet'],
  ['manual', 'manual'],
];

/** The servers, tools, models and system prompts entries are drawn from (for corpora made elsewhere, e.g. in SQL). */
export const CORPUS_LISTS = { servers: SERVERS, tools: TOOLS, models: MODELS, systemPrompts: SYSTEM_PROMPTS } as const;

/** A small deterministic PRNG (mulberry32); returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words a corpus draws from, most frequent first, with rare made-up terms at the tail. */
export function vocabulary(): string[] {
  const rare: string[] = [];
  const syll = ['ka', 'lo', 'mir', 'zen', 'tu', 'bra', 'vel', 'quo', 'xi', 'dor', 'fen', 'gal', 'sha', 'pim', 'rud'];
  for (let i = 0; i < 6000; i++) rare.push(`${syll[i % 15]}${syll[Math.floor(i / 15) % 15]}${syll[Math.floor(i / 225) % 15]}${i % 7}`);
  return [...COMMON, ...DOMAIN, ...rare];
}

/** The corpus's random draws: Zipf-like words, a capitalised sentence of them, one item of a list. */
function draws(random: () => number) {
  const words = vocabulary();
  // Zipf-ish: index = floor(n ^ u) skews heavily towards the start of the list.
  const word = () => words[Math.min(words.length - 1, Math.floor(Math.pow(words.length, random() ** 1.6)) - 1)] ?? 'the';
  const text = (min: number, max: number) => {
    const n = min + Math.floor(random() * (max - min));
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(word());
    const s = out.join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return { random, text, pick };
}

type Draws = ReturnType<typeof draws>;

/** What every request of one session shares. */
interface SessionFacts {
  conversationId: string;
  serverId: string;
  callName: string;
  providerId: string;
  model: string;
  systemPrompt: string;
}

/** Draws a session's server, tool, model, conversation id (from `n`, the next entry's number) and system prompt. */
function sessionFacts({ random, pick }: Draws, n: number): SessionFacts {
  const serverId = pick(SERVERS);
  const callName = pick(TOOLS);
  const [providerId, model] = pick(MODELS);
  const conversationId = `s${n.toString(36)}-${Math.floor(random() * 1e9).toString(36)}`;
  const systemPrompt = pick(SYSTEM_PROMPTS);
  return { conversationId, serverId, callName, providerId, model, systemPrompt };
}

/**
 * One request of a session, received at `at`: appends its prompt to `messages` (the conversation so
 * far), draws how it ended, and returns the entry and the response's text.
 */
function requestEntry(d: Draws, s: SessionFacts, id: string, at: number, messages: SamplingMessage[]): { entry: HistoryEntry; response: string } {
  const { random, text } = d;
  const { conversationId, serverId, callName, providerId, model, systemPrompt } = s;
  const prompt = text(12, 90);
  const withImage = random() < 0.02;
  messages.push({
    role: 'user',
    content: withImage ? [{ type: 'text', text: prompt }, { type: 'image', mimeType: 'image/png', data: imageData(random) }] : { type: 'text', text: prompt },
  });
  const roll = random();
  const status: SamplingStatus = roll < 0.78 ? 'delivered' : roll < 0.9 ? 'rejected' : roll < 0.95 ? 'failed' : roll < 0.98 ? 'cancelled' : 'timed_out';
  const edited = random() < 0.2;
  const response = text(20, 160);
  const original = { messages: [...messages], systemPrompt, maxTokens: 400, temperature: 0.7 };
  const sent = edited ? { ...original, maxTokens: 300, systemPrompt: `${systemPrompt} ${text(3, 8)}` } : original;
  const result = { role: 'assistant' as const, content: { type: 'text' as const, text: response }, model, stopReason: 'endTurn' as const };
  const generationMs = 300 + Math.floor(random() * 4000);
  const reviewMs = 1500 + Math.floor(random() * 40_000);
  const entry: HistoryEntry = {
    id,
    conversationId,
    serverId,
    callName,
    status,
    decidedBy: status === 'failed' || status === 'timed_out' ? 'console' : 'person',
    receivedAt: at,
    endedAt: at + reviewMs + generationMs,
    model,
    providerId,
    edited,
    preview: prompt.slice(0, 200),
    original,
    modelChoice: { providerId, modelId: model, reason: `hint matched '${model}'` },
    timings: { queuedMs: 1, reviewMs, generationMs, totalMs: reviewMs + generationMs },
    events: [{ at, kind: 'received' }],
  };
  recordOutcome(d, entry, { sent, result, response });
  return { entry, response };
}

/** Adds what `entry`'s status implies: what was sent, generated and delivered, usage, the error, the last event. */
function recordOutcome({ random, text }: Draws, entry: HistoryEntry, made: { sent: CreateMessageParams; result: CreateMessageResult; response: string }): void {
  const { status, edited } = entry;
  const { sent, result, response } = made;
  if (status !== 'failed') {
    entry.sent = sent;
    entry.generated = result;
    entry.usage = { inputTokens: 20 + Math.floor(random() * 800), outputTokens: 10 + Math.floor(random() * 300) };
  }
  if (status === 'delivered') entry.delivered = edited ? { ...result, content: { type: 'text', text: `${response} ${text(2, 6)}` } } : result;
  if (status === 'failed') {
    entry.error = 'provider error: 502 Bad Gateway';
    entry.errorDetail = { message: 'provider error: 502 Bad Gateway', code: -32603 };
  }
  if (status === 'rejected') entry.error = 'User rejected sampling request';
  entry.events.push({ at: entry.endedAt!, kind: status });
}

/** Corpus generator: `entries(count)` yields sessions' entries in receive order. */
export function historyCorpus(seed = 42, start = Date.UTC(2026, 0, 1)) {
  const d = draws(rng(seed));
  let at = start;
  let n = 0;

  /** One session of 1–3 requests (70 % / 20 % / 10 %). */
  function session(): HistoryEntry[] {
    const rounds = d.random() < 0.7 ? 1 : d.random() < 0.67 ? 2 : 3;
    const facts = sessionFacts(d, n);
    const out: HistoryEntry[] = [];
    const messages: SamplingMessage[] = [];
    for (let r = 0; r < rounds; r++) {
      at += 1 + Math.floor(d.random() * 60_000);
      const { entry, response } = requestEntry(d, facts, `e${(n++).toString(36)}`, at, messages);
      out.push(entry);
      messages.push({ role: 'assistant', content: { type: 'text', text: response } });
    }
    return out;
  }
  return { session };
}

/** 4–40 KB of base64 (a few distinct images repeat, as screenshots of one page would). */
function imageData(random: () => number): string {
  const variant = Math.floor(random() * 8);
  const size = 3_000 + variant * 4_500;
  return Buffer.alloc(size, variant + 1).toString('base64');
}
