/** The history database handle type, in a leaf module so every store module can name it. */
import type Database from 'libsql';

/** An open libsql (better-sqlite3 API) connection. */
export type Db = Database.Database;
