/**
 * A team server's people as the People settings show and change them (the `listPeople`,
 * `addPerson`, `setPersonRole`, `resetPassword`, `removePerson` API methods). Passwords go in,
 * never out: a person's view says only how they sign in.
 */
import { z } from 'zod';
import { TEAM_ROLES, type TeamRole } from './roles.js';

/** Shortest password a person may be given, in characters (main/team/passwords.ts checks the same). */
export const PERSON_PASSWORD_MIN = 12;
/** Longest password, in characters. */
export const PERSON_PASSWORD_MAX = 1024;

/** A sign-in name: 1–100 characters, no control characters. */
export const PersonNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters');
/** A password as typed. */
export const PersonPasswordSchema = z.string().min(PERSON_PASSWORD_MIN).max(PERSON_PASSWORD_MAX);
/** A reviewer's assigned servers (server ids); absent: every server. */
export const PersonServersSchema = z.array(z.string().min(1).max(200)).min(1).max(500).optional();
/** A subject (`p_…`). */
export const PersonSubjectSchema = z.string().min(1).max(200);
/** A role. */
export const TeamRoleSchema = z.enum(TEAM_ROLES);

/** One person as the People settings list them. */
export interface PersonView {
  subject: string;
  name: string;
  role: TeamRole;
  /** Servers a reviewer is assigned to; absent: every server. */
  servers?: readonly string[];
  /** When they were added, epoch ms. */
  createdAt: number;
  /** Their single sign-on provider (issuer URL), when they sign in through one. */
  ssoIssuer?: string;
}
