/**
 * One status vocabulary for every item a server (or a provider-gateway caller) asks of the console
 * — sampling requests, provider calls, elicitations — used alike by the Queue, History, exports and
 * the review state machines (main/requests/machine.ts). Each kind moves through its own part of it:
 *
 * - sampling (and provider calls): awaiting_request_review → generating → awaiting_response_review
 *   → delivered, or rejected / failed (refused at intake) / cancelled / timed_out;
 * - elicitation: awaiting_input → accepted / declined / cancelled (the person closed it) /
 *   withdrawn (the server stopped waiting) / completed (a URL flow the server reported done);
 * - any kind: `interrupted` — only found in history: the console stopped (quit or crash) first.
 *
 * Leaf module: no imports.
 */

/** Every status, open ones first. */
export const ITEM_STATUSES = [
  'awaiting_request_review',
  'generating',
  'awaiting_response_review',
  'awaiting_input',
  'delivered',
  'accepted',
  'completed',
  'rejected',
  'declined',
  'failed',
  'cancelled',
  'withdrawn',
  'timed_out',
  'interrupted',
] as const;

/** See {@link ITEM_STATUSES}. */
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The statuses a sampling item (or provider call) moves through. */
export type SamplingStatus = Extract<ItemStatus, 'awaiting_request_review' | 'generating' | 'awaiting_response_review' | 'delivered' | 'rejected' | 'failed' | 'cancelled' | 'timed_out' | 'interrupted'>;

/** The statuses an elicitation moves through (`interrupted` only in history). */
export type ElicitationStatus = Extract<ItemStatus, 'awaiting_input' | 'accepted' | 'declined' | 'cancelled' | 'withdrawn' | 'completed'>;

/** Statuses in which an item still waits on someone (the person, a provider). */
export const OPEN_STATUSES = ['awaiting_request_review', 'generating', 'awaiting_response_review', 'awaiting_input'] as const satisfies readonly ItemStatus[];

/** Statuses in which an item waits on the person: a review to do, a form to answer. */
export const PERSON_STATUSES = ['awaiting_request_review', 'awaiting_response_review', 'awaiting_input'] as const satisfies readonly ItemStatus[];

/** Whether an item in `status` waits on the person (badge, tray, notifications, the Queue's count). */
export function waitsOnPerson(status: string): boolean {
  return (PERSON_STATUSES as readonly string[]).includes(status);
}

/** Statuses after which nothing more happens to an item. */
export const TERMINAL_STATUSES: readonly ItemStatus[] = ITEM_STATUSES.filter((s) => !(OPEN_STATUSES as readonly string[]).includes(s));

/** Whether nothing more happens to an item in `status`. */
export function isTerminalStatus(status: ItemStatus): boolean {
  return !(OPEN_STATUSES as readonly string[]).includes(status);
}

/** What an ended item's status says happened: the answer went out, the person said no, or neither. */
export type StatusOutcome = 'answered' | 'refused' | 'none';

/** The outcome of each terminal status (open ones: `none`), for counts such as History's stats. */
export const STATUS_OUTCOME: Readonly<Record<ItemStatus, StatusOutcome>> = {
  awaiting_request_review: 'none',
  generating: 'none',
  awaiting_response_review: 'none',
  awaiting_input: 'none',
  delivered: 'answered',
  accepted: 'answered',
  completed: 'answered',
  rejected: 'refused',
  declined: 'refused',
  failed: 'none',
  cancelled: 'none',
  withdrawn: 'none',
  timed_out: 'none',
  interrupted: 'none',
};

/** How a status is shown: waiting on the person, working, done well, refused or failed, or ended quietly. */
export type StatusTone = 'warn' | 'info' | 'ok' | 'error' | 'muted';

/** The tone of each status (badges in the Queue and History). */
export const STATUS_TONE: Readonly<Record<ItemStatus, StatusTone>> = {
  awaiting_request_review: 'warn',
  generating: 'info',
  awaiting_response_review: 'warn',
  awaiting_input: 'warn',
  delivered: 'ok',
  accepted: 'ok',
  completed: 'ok',
  rejected: 'error',
  declined: 'error',
  failed: 'error',
  cancelled: 'muted',
  withdrawn: 'muted',
  timed_out: 'muted',
  interrupted: 'warn',
};
