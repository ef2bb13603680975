#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions; these fixed-argument wrappers stand in for the few
// configuration calls SQLiteDB makes.

static inline int csqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}

#endif
