#ifndef CLARISSA_CSQLITE_SHIM_H
#define CLARISSA_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import: text and
 * blobs bound through these are copied by SQLite before the call returns. */
static inline int clarissa_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text,
                                            int bytes) {
  return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int clarissa_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *data,
                                            int bytes) {
  return sqlite3_bind_blob(statement, index, data, bytes, SQLITE_TRANSIENT);
}

#endif
