#ifndef SQLITE_FAULTS_H
#define SQLITE_FAULTS_H

/// A VFS named "faults" that wraps the system's default one, for tests that sweep I/O errors
/// and power loss over a database the way SQLite's own test suite does (its crash-test and
/// I/O-error loops). Every call on a file passes through and is counted; one can be made to
/// fail, or the power can be "cut" at a sync: from then on every call fails, and
/// `faults_power_cut` puts each file back as the disk would hold it — every write since the
/// file's last sync undone, the newest one possibly torn (its first 512 bytes kept).
/// File creation and deletion are taken as durable at once. One sweep at a time per process.

enum {
    FAULTS_NONE = 0,
    FAULTS_EIO = 1,        /* reads and writes fail with SQLITE_IOERR */
    FAULTS_ENOSPC = 2,     /* writes fail with SQLITE_FULL */
    FAULTS_FSYNC = 3,      /* a sync fails with SQLITE_IOERR_FSYNC */
    FAULTS_LOCK = 4,       /* taking a lock fails with SQLITE_IOERR_LOCK */
};

/// Registers the VFS (once); 0 on success.
int faults_register(void);
/// Counters to zero, no failure armed, power on, the record of unsynced writes forgotten.
void faults_reset(void);
/// Fails the `n`th call (1-based) of the kind's calls with `kind`'s error; later calls pass.
void faults_fail_at(int n, int kind);
/// Cuts the power at the `n`th sync (1-based): that sync and every call after it fail.
void faults_crash_at_sync(int n, int torn);
/// How many calls of `kind` were made since the reset (FAULTS_NONE: all I/O calls; FAULTS_FSYNC: syncs).
int faults_count(int kind);
/// Whether the armed failure or crash happened.
int faults_fired(void);
/// After a crash: writes back what the disk would hold (call when every connection is closed).
void faults_power_cut(void);

#endif
