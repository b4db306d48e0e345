/**
 * What a team server shows of who reviews what (main/team/claims.ts): the claims on waiting items,
 * the approvals two-person rules count, and who is online. Plain data (a state slice, `team`);
 * absent on the desktop, which has no claims.
 */

/** How often a page open on an item it claimed renews the claim (`claimItem` again), in ms. */
export const CLAIM_HEARTBEAT_MS = 10_000;

/** A person as the team view names them. */
export interface TeamPersonRef {
  /** Stable id of the person (`admin` for the shared admin token). */
  subject: string;
  /** Display name. */
  name: string;
}

/** A claim on a waiting item: the person reviewing it, since when (epoch ms). */
export interface ClaimView extends TeamPersonRef {
  since: number;
}

/**
 * The approvals an item needs under a two-person rule (`needed` ≥ 2) and those given so far for
 * its current content version (an edit voids earlier ones), in order.
 */
export interface ApprovalsView {
  needed: number;
  given: TeamPersonRef[];
}

/** The `team` slice of the console state. */
export interface TeamView {
  /** Claims by item id (only items someone holds). */
  claims: Record<string, ClaimView>;
  /** Approvals by item id (only items a two-person rule covers). */
  approvals: Record<string, ApprovalsView>;
  /** People with the UI open on any instance, by name; one entry per person. */
  online: TeamPersonRef[];
}

/** What `claimItem` answers: who holds the item now, and whether that is the caller. */
export interface ClaimResult {
  holder: ClaimView;
  mine: boolean;
}
