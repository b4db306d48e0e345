/**
 * Names a server was known by before: a bridged server whose command line earlier versions named
 * differently (`node …/server-everything/dist/index.js` was `index`, now `server-everything`)
 * says so in its hello. The rules and limits a person wrote under such a name keep applying to the
 * server until they write some under its new name.
 */
import type { RulesFile } from '../../shared/contract/rules.js';

/** The former names the console heard of since it started, per server id. */
export interface FormerNames {
  /** Notes that `serverId` was formerly known as each of `formerly` (other than itself). */
  note(serverId: string, formerly: readonly string[]): void;
  /** `serverId`'s former names, in the order they were first said. */
  of(serverId: string): readonly string[];
}

/** Creates an empty record. */
export function createFormerNames(): FormerNames {
  const names = new Map<string, string[]>();
  return {
    note(serverId, formerly) {
      const known = new Set(names.get(serverId));
      for (const name of formerly) if (name !== serverId) known.add(name);
      if (known.size > 0) names.set(serverId, [...known]);
    },
    of: (serverId) => names.get(serverId) ?? [],
  };
}

/**
 * The rules file as it applies to `serverId`: the file itself when it has an entry for the server
 * (or none for any former name), else the file with the entry of the first former name that has
 * one standing in for the server's (its rules, elicitation policy and limits).
 */
export function rulesFileFor(file: RulesFile, serverId: string, formerly: readonly string[]): RulesFile {
  if (file.servers[serverId] || formerly.length === 0) return file;
  const former = formerly.find((name) => file.servers[name]);
  return former ? { ...file, servers: { ...file.servers, [serverId]: file.servers[former]! } } : file;
}
