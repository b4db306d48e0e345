/**
 * People's local passwords on a team server: hashed with argon2id (`@node-rs/argon2`, prebuilt
 * binaries) into a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), the only form stored
 * (`team_people.password_hash`). Hashing runs on libuv's thread pool: the main thread is never
 * blocked for the tens of ms it takes.
 */
import { hash, verify } from '@node-rs/argon2';

/** Shortest password accepted, in characters. */
export const PASSWORD_MIN_LENGTH = 12;
/** Longest password accepted, in characters (argon2 takes any length; this bounds the work a sign-in costs). */
export const PASSWORD_MAX_LENGTH = 1024;

/** argon2id's cost: 19 MiB, 2 passes, 1 lane (OWASP's minimum recommendation). */
const COST = { algorithm: 2 /* Algorithm.Argon2id (an ambient const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A hash of a password no one has, checked when the name is unknown so a wrong name takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

/**
 * Why `password` cannot be a person's password, or undefined when it can.
 * @returns an English reason (the command line prints it; the API maps it to a message code)
 */
export function passwordProblem(password: string): 'too_short' | 'too_long' | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (password.length > PASSWORD_MAX_LENGTH) return 'too_long';
  return undefined;
}

/**
 * The argon2id PHC string of `password`, with a fresh salt.
 * @throws Error when the password breaks {@link passwordProblem}
 */
export async function hashPassword(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem === 'too_short' ? `a password needs at least ${PASSWORD_MIN_LENGTH} characters` : `a password has at most ${PASSWORD_MAX_LENGTH} characters`);
  return hash(password, COST);
}

/**
 * Whether `password` is the one `stored` was made from; with no `stored` (unknown name, no
 * password set) a decoy hash is checked and the answer is false, so timing does not tell names apart.
 * False for a malformed `stored` or a password longer than {@link PASSWORD_MAX_LENGTH}.
 */
export async function passwordMatches(password: string, stored: string | undefined): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  if (!stored) {
    await verify((await (decoy ??= hash('decoy password never given to anyone', COST))), password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
