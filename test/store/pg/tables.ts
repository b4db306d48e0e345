/** The PostgreSQL history's tables, for tests that empty them (`TRUNCATE … RESTART IDENTITY`). */
export const HISTORY_TABLES = 'history_blobs, blobs, history_data, history';
