/**
 * Personal tokens on a team server: each person makes their own, for their bridges and their
 * programs calling the provider gateway. A call made with one is "requested by" its owner (the
 * item's and History's `requestedBy`). Only the SHA-256 of a token is stored; the token is shown
 * once, when made. A token may be scoped: to the servers a bridge may bring (`servers`) and to the
 * doors it may be used at (`callers`: the provider gateway, bridges); a use outside its scope is
 * refused (HTTP 403 in the provider's error shape; a bridge is refused at hello). Revoked — by its
 * owner or an admin, or when its owner is removed — it is refused at once on every instance.
 */
import { z } from 'zod';
import { GatewayTokenNameSchema } from './gateway.js';

/** The doors a personal token may be used at: the provider gateway, and bridges from other machines. */
export const TOKEN_CALLERS = ['gateway', 'bridge'] as const;
/** See {@link TOKEN_CALLERS}. */
export type TokenCaller = (typeof TOKEN_CALLERS)[number];

/** A person named on an item or a History entry: their stable subject and their name at the time. */
export interface PersonRef {
  subject: string;
  name: string;
}

/** What a personal token may be used for; absent fields: no limit. */
export const PersonalTokenScopeSchema = z
  .object({
    /** Server ids a bridge with it may bring (e.g. `github`); absent: any. */
    servers: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
    /** Where it may be used; absent: both. */
    callers: z.array(z.enum(TOKEN_CALLERS)).min(1).max(TOKEN_CALLERS.length).optional(),
  })
  .strict();
/** See {@link PersonalTokenScopeSchema}. */
export type PersonalTokenScope = z.infer<typeof PersonalTokenScopeSchema>;

/** The input of `createPersonalToken`: a name (as gateway tokens', unique among live personal tokens) and a scope. */
export const NewPersonalTokenSchema = PersonalTokenScopeSchema.extend({ name: GatewayTokenNameSchema }).strict();

/** What a personal token's use stands for: which token, whose it is, and what it may do. */
export interface PersonalTokenUse extends PersonalTokenScope {
  /** Stable id (`pt_…`). */
  id: string;
  name: string;
  owner: PersonRef;
}

/** A personal token as its owner (and an admin) sees it; never the token itself. */
export interface PersonalTokenView extends PersonalTokenUse {
  /** Epoch ms. */
  createdAt: number;
  /** Calls and bridge connections made with it. */
  calls: number;
  /** Epoch ms of its last use. */
  lastUsedAt?: number;
}
