/**
 * `createConsole(ports)`: wires config, MCP connections, the sampling pipeline, providers and the
 * history store into one {@link ConsoleService}. Hosts (app/electron, app/web) and tests call this.
 * (Being written; the signature is the contract.)
 */
import type { ConsoleService } from '../shared/api.js';
import type { ConsolePorts } from './ports.js';

/** A running console. `dispose` closes every server connection and the history database. */
export interface ConsoleHandle {
  service: ConsoleService;
  dispose(): Promise<void>;
}

/** Starts the console: reads config from `ports.userDataDir`, connects servers, opens history. */
export async function createConsole(_ports: ConsolePorts): Promise<ConsoleHandle> {
  throw new Error('not yet implemented');
}
