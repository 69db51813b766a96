#include <sqlite3.h>

/// sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes): how large a statement
/// journal grows in memory before it spills to a temporary file. Here because
/// sqlite3_config is variadic, which Swift cannot call. Returns SQLITE_OK, or
/// SQLITE_MISUSE once SQLite is initialised.
static inline int photofiler_sqlite_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0): SQLite stops counting the memory it
/// allocates, a count kept under a process-wide mutex that every allocation and
/// free takes (`SQLiteConnection.processSettings` says why). Variadic, hence here;
/// returns SQLITE_OK, or SQLITE_MISUSE once SQLite is initialised.
static inline int photofiler_sqlite_stop_counting_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
