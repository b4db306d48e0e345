/**
 * Two-person approval on a team server: a sampling request whose deciding `ask` rule sets
 * `approvals: N` (shared/contract/rules-schema.ts; the item's `policy.approvalsNeeded`) goes out only
 * at the Nth approval from different reviewers (`team_approvals`, migration 0016).
 *
 * - Each approval is bound to what it approves: the content version of the request and model as
 *   they would be sent (main/requests/version.ts), so an approval with edits is an approval of
 *   another version, and the earlier ones no longer count for it ("an edit voids them").
 * - The person whose token made the call (the item's `requestedBy`, when the call carries one)
 *   never approves it; one person approves a version once.
 * - Until the Nth, an approval is recorded (audit `approval.given`) and the approver's claim is
 *   released, so the next reviewer can take the request; the Nth is the decision itself, taken
 *   through the item's holder like any other (main/team/decisions.ts): two reviewers giving the
 *   Nth at once decide once.
 */
import { ApiError, type ApiParsedInput } from '../../shared/contract/api.js';
import type { ItemView } from '../../shared/contract/state.js';
import type { ApprovalsView } from '../../shared/contract/team-view.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { AuditRecorder } from '../audit/trail.js';
import { contentVersionSliced } from '../requests/version.js';
import type { StateHub } from '../state-hub.js';
import { isConnectionError } from '../store/pg/connection.js';
import type { TeamDatabase } from './database.js';
import { refusal } from './decisions.js';
import { notifySql } from './notify.js';
import type { Claimant, Query } from './claims.js';

/** What {@link createTeamApprovals} needs. */
export interface ApprovalsDeps {
  team: Pick<TeamDatabase, 'conn' | 'lease'>;
  hub: Pick<StateHub, 'getItem' | 'items'>;
  audit: AuditRecorder;
}

/** Two-person approval on one instance. */
export interface TeamApprovals {
  /**
   * Counts `who`'s approval of a request under a two-person rule. `send`: the request has its
   * approvals (or needs only one): take the decision now; `counted`: recorded, more are needed.
   * @throws ApiError `forbidden` (`error.ownRequest`: the request was made with their token;
   *   `error.approverUnknown`: no signed-in person), `invalid_state` (`error.alreadyApproved`,
   *   `error.staleVersion`), `internal` (`error.teamUnavailable`)
   */
  approve(input: ApiParsedInput<'approveRequest'>, who: Claimant | undefined): Promise<'send' | 'counted'>;
  /** Whether item `itemId` needs more than one approval (a two-person rule covers it). */
  covers(itemId: string): boolean;
  /** The approvals to show for the items in the hub a two-person rule covers, while their request awaits review. */
  view(query: Query): Promise<Record<string, ApprovalsView>>;
}

/** The approvals an item needs (1 unless a two-person rule covers it). */
export function approvalsNeeded(item: ItemView | undefined): number {
  if (!item || item.kind === 'elicitation') return 1;
  return item.policy?.approvalsNeeded ?? 1;
}

/** The person whose token made the call, when the item says so. */
function requesterOf(item: ItemView): string | undefined {
  return 'requestedBy' in item ? item.requestedBy?.subject : undefined;
}

const INSERT_SQL = 'INSERT INTO team_approvals (item_id, version, subject, name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING subject';
/** Approvals of item $1, version $2, not by $3 (the requester). */
const COUNT_SQL = 'SELECT count(*)::int AS n FROM team_approvals WHERE item_id = $1 AND version = $2 AND subject IS DISTINCT FROM $3';
const OF_ITEMS_SQL = 'SELECT item_id, version, subject, name FROM team_approvals WHERE item_id = ANY($1) ORDER BY approved_at, subject';

/** Creates two-person approval over the team database. */
export function createTeamApprovals(deps: ApprovalsDeps): TeamApprovals {
  const { team, hub } = deps;
  return {
    async approve(input, who) {
      const item = hub.getItem(input.itemId);
      const needed = approvalsNeeded(item);
      if (!item || needed < 2) return 'send';
      if (!who) throw new ApiError('forbidden', ui('error.cannotAct', { action: ui('action.approveRequest'), why: ui('error.approverUnknown') }));
      const requester = requesterOf(item);
      if (requester === who.subject) throw new ApiError('forbidden', ui('error.cannotAct', { action: ui('action.approveRequest'), why: ui('error.ownRequest') }));
      if (item.contentVersion !== input.version) throw refusal('approveRequest', 'error.staleVersion');
      const version = await contentVersionSliced({ params: input.params, model: input.model });
      let result: { inserted: boolean; count: number };
      try {
        result = await team.conn.transaction(async (query) => {
          const inserted = (await query(INSERT_SQL, [input.itemId, version, who.subject, who.name])).length > 0;
          const [row] = await query<{ n: number }>(COUNT_SQL, [input.itemId, version, requester ?? null]);
          const n = notifySql({ topic: 'claim', from: team.lease.id() });
          if (inserted) await query(n.text, n.params);
          return { inserted, count: row?.n ?? 0 };
        });
      } catch (err) {
        throw isConnectionError(err) ? new ApiError('internal', ui('error.teamUnavailable')) : err;
      }
      if (!result.inserted && result.count < needed) throw refusal('approveRequest', 'error.alreadyApproved');
      if (result.inserted) {
        deps.audit.record({ actor: { kind: 'person', id: who.subject, name: who.name }, kind: 'approval.given', subject: `item:${input.itemId}`, details: { version: input.version, approved: version, given: result.count, needed } });
      }
      return result.count >= needed ? 'send' : 'counted';
    },
    covers: (itemId) => approvalsNeeded(hub.getItem(itemId)) > 1,
    async view(query) {
      // Counted while the request is under review; once it went out, the response review is one person's.
      const covered = hub.items().filter((i) => approvalsNeeded(i) > 1 && i.status === 'awaiting_request_review');
      if (covered.length === 0) return {};
      const rows = await query<{ item_id: string; version: string; subject: string; name: string }>(OF_ITEMS_SQL, [covered.map((i) => i.id)]);
      const out: Record<string, ApprovalsView> = {};
      for (const item of covered) {
        const mine = rows.filter((r) => r.item_id === item.id && r.subject !== requesterOf(item));
        // The version approved last is the one collecting approvals now (an edit started a new count).
        const latest = mine.at(-1)?.version;
        out[item.id] = { needed: approvalsNeeded(item), given: mine.filter((r) => r.version === latest).map((r) => ({ subject: r.subject, name: r.name })) };
      }
      return out;
    },
  };
}
