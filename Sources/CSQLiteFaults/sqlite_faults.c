#include "sqlite_faults.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;
    char path[1024];
} FaultFile;

/* One write (or truncation) not yet synced: what the disk held before it. */
typedef struct Unsynced {
    char path[1024];
    sqlite3_int64 offset;
    int length;               /* bytes of `before` that were inside the file */
    unsigned char *before;
    unsigned char head[512];  /* the first bytes written, for a torn write */
    int headLength;
    sqlite3_int64 sizeBefore; /* the file's size before this change */
} Unsynced;

static sqlite3_vfs faultsVFS;
static sqlite3_vfs *realVFS;
static int counts[5];
static int failKind, failAt, crashAt, crashTorn, fired, powerOff;
static Unsynced *records;
static int recordCount, recordCapacity;

static void forget(const char *path) {
    int kept = 0;
    for (int i = 0; i < recordCount; i++) {
        if (path && strcmp(records[i].path, path) != 0) {
            records[kept++] = records[i];
        } else {
            free(records[i].before);
        }
    }
    recordCount = kept;
}

void faults_reset(void) {
    memset(counts, 0, sizeof counts);
    failKind = failAt = crashAt = crashTorn = fired = powerOff = 0;
    forget(NULL);
}

void faults_fail_at(int n, int kind) { failAt = n; failKind = kind; }
void faults_crash_at_sync(int n, int torn) { crashAt = n; crashTorn = torn; }
int faults_count(int kind) { return counts[kind]; }
int faults_fired(void) { return fired; }

/* Whether the armed failure strikes the call just counted as `kind`. */
static int hits(int kind) {
    if (failKind == kind && counts[kind] == failAt) {
        fired = 1;
        return 1;
    }
    return 0;
}

/* Counts a call of `kind` (and as an I/O call); whether the armed failure strikes it. */
static int strikes(int kind) {
    counts[FAULTS_NONE]++;
    counts[kind]++;
    return hits(kind);
}

static int isSharedMemory(const char *path) {
    size_t length = strlen(path);
    return length > 4 && strcmp(path + length - 4, "-shm") == 0;
}

static void remember(FaultFile *file, sqlite3_int64 offset, const void *data, int amount, int isTruncate) {
    if (isSharedMemory(file->path)) return;
    sqlite3_int64 size = 0;
    file->real->pMethods->xFileSize(file->real, &size);
    if (recordCount == recordCapacity) {
        recordCapacity = recordCapacity ? recordCapacity * 2 : 64;
        records = realloc(records, sizeof(Unsynced) * (size_t)recordCapacity);
    }
    Unsynced *record = &records[recordCount++];
    memset(record, 0, sizeof *record);
    strncpy(record->path, file->path, sizeof record->path - 1);
    record->offset = offset;
    record->sizeBefore = size;
    sqlite3_int64 inside = size - offset;
    if (inside > amount) inside = amount;
    if (inside < 0) inside = 0;
    record->length = (int)inside;
    record->before = malloc(inside > 0 ? (size_t)inside : 1);
    if (inside > 0) file->real->pMethods->xRead(file->real, record->before, (int)inside, offset);
    if (!isTruncate && data) {
        record->headLength = amount < 512 ? amount : 512;
        memcpy(record->head, data, (size_t)record->headLength);
    }
}

void faults_power_cut(void) {
    /* Newest first: each file goes back to what its last sync left. */
    for (int i = recordCount - 1; i >= 0; i--) {
        Unsynced *record = &records[i];
        int fd = open(record->path, O_WRONLY);
        if (fd < 0) continue;
        if (record->length > 0) pwrite(fd, record->before, (size_t)record->length, record->offset);
        if (ftruncate(fd, record->sizeBefore) != 0) { /* the file stays as it is */ }
        close(fd);
    }
    if (crashTorn) {
        /* The newest unsynced write of each file reached the disk in part: its first sector. */
        for (int i = recordCount - 1; i >= 0; i--) {
            int newest = 1;
            for (int j = i + 1; j < recordCount; j++) {
                if (strcmp(records[j].path, records[i].path) == 0) newest = 0;
            }
            if (!newest || records[i].headLength == 0) continue;
            int fd = open(records[i].path, O_WRONLY);
            if (fd < 0) continue;
            pwrite(fd, records[i].head, (size_t)records[i].headLength, records[i].offset);
            close(fd);
        }
    }
    forget(NULL);
    powerOff = 0;
}

/* ---- The file's methods: counted, failed on demand, then passed to the real file. ---- */

static int fClose(sqlite3_file *f) {
    FaultFile *file = (FaultFile *)f;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    return rc;
}

static int fRead(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff || strikes(FAULTS_EIO)) return SQLITE_IOERR_READ;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int fWrite(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff) return SQLITE_IOERR_WRITE;
    counts[FAULTS_ENOSPC]++;  /* a write counts as a write (ENOSPC) and as a read or write (EIO) */
    if (strikes(FAULTS_EIO)) return SQLITE_IOERR_WRITE;
    if (hits(FAULTS_ENOSPC)) return SQLITE_FULL;
    remember(file, offset, data, amount, 0);
    return file->real->pMethods->xWrite(file->real, data, amount, offset);
}

static int fTruncate(sqlite3_file *f, sqlite3_int64 size) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff || strikes(FAULTS_EIO)) return SQLITE_IOERR_TRUNCATE;
    sqlite3_int64 current = 0;
    file->real->pMethods->xFileSize(file->real, &current);
    if (current > size) remember(file, size, NULL, (int)(current - size), 1);
    return file->real->pMethods->xTruncate(file->real, size);
}

static int fSync(sqlite3_file *f, int flags) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff) return SQLITE_IOERR_FSYNC;
    if (strikes(FAULTS_FSYNC)) return SQLITE_IOERR_FSYNC;
    if (crashAt && counts[FAULTS_FSYNC] == crashAt) {
        fired = 1;
        powerOff = 1;
        return SQLITE_IOERR_FSYNC;
    }
    int rc = file->real->pMethods->xSync(file->real, flags);
    if (rc == SQLITE_OK) forget(file->path);
    return rc;
}

static int fFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff) return SQLITE_IOERR_FSTAT;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int fLock(sqlite3_file *f, int level) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff || strikes(FAULTS_LOCK)) return SQLITE_IOERR_LOCK;
    return file->real->pMethods->xLock(file->real, level);
}

static int fUnlock(sqlite3_file *f, int level) {
    FaultFile *file = (FaultFile *)f;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int fCheckReservedLock(sqlite3_file *f, int *out) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff) return SQLITE_IOERR_CHECKRESERVEDLOCK;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int fFileControl(sqlite3_file *f, int op, void *arg) {
    FaultFile *file = (FaultFile *)f;
    return file->real->pMethods->xFileControl(file->real, op, arg);
}

static int fSectorSize(sqlite3_file *f) {
    FaultFile *file = (FaultFile *)f;
    return file->real->pMethods->xSectorSize(file->real);
}

static int fDeviceCharacteristics(sqlite3_file *f) {
    FaultFile *file = (FaultFile *)f;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int fShmMap(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff) return SQLITE_IOERR_SHMMAP;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, out);
}

static int fShmLock(sqlite3_file *f, int offset, int n, int flags) {
    FaultFile *file = (FaultFile *)f;
    if (powerOff) return SQLITE_IOERR_SHMLOCK;
    return file->real->pMethods->xShmLock(file->real, offset, n, flags);
}

static void fShmBarrier(sqlite3_file *f) {
    FaultFile *file = (FaultFile *)f;
    file->real->pMethods->xShmBarrier(file->real);
}

static int fShmUnmap(sqlite3_file *f, int deleteFlag) {
    FaultFile *file = (FaultFile *)f;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

static const sqlite3_io_methods faultMethods = {
    2, fClose, fRead, fWrite, fTruncate, fSync, fFileSize, fLock, fUnlock, fCheckReservedLock,
    fFileControl, fSectorSize, fDeviceCharacteristics, fShmMap, fShmLock, fShmBarrier, fShmUnmap,
    0, 0,
};

/* ---- The VFS: opens wrapped files; everything else is the real VFS's. ---- */

static int vOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *outFlags) {
    (void)vfs;
    FaultFile *file = (FaultFile *)f;
    memset(file, 0, sizeof *file);
    file->real = (sqlite3_file *)&file[1];
    if (name) strncpy(file->path, name, sizeof file->path - 1);
    if (powerOff) return SQLITE_CANTOPEN;
    int rc = realVFS->xOpen(realVFS, name, file->real, flags, outFlags);
    file->base.pMethods = file->real->pMethods ? &faultMethods : NULL;
    return rc;
}

static int vDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    if (powerOff) return SQLITE_IOERR_DELETE;
    forget(name);
    return realVFS->xDelete(realVFS, name, syncDir);
}

static int vAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    if (powerOff) return SQLITE_IOERR_ACCESS;
    return realVFS->xAccess(realVFS, name, flags, out);
}

static int vFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return realVFS->xFullPathname(realVFS, name, size, out);
}

static void *vDlOpen(sqlite3_vfs *vfs, const char *name) { (void)vfs; return realVFS->xDlOpen(realVFS, name); }
static void vDlError(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; realVFS->xDlError(realVFS, size, out); }
static void (*vDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) { (void)vfs; return realVFS->xDlSym(realVFS, handle, symbol); }
static void vDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; realVFS->xDlClose(realVFS, handle); }
static int vRandomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return realVFS->xRandomness(realVFS, size, out); }
static int vSleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return realVFS->xSleep(realVFS, microseconds); }
static int vCurrentTime(sqlite3_vfs *vfs, double *out) { (void)vfs; return realVFS->xCurrentTime(realVFS, out); }
static int vGetLastError(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return realVFS->xGetLastError(realVFS, size, out); }
static int vCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) { (void)vfs; return realVFS->xCurrentTimeInt64(realVFS, out); }

int faults_register(void) {
    if (realVFS) return SQLITE_OK;
    realVFS = sqlite3_vfs_find(NULL);
    if (!realVFS) return SQLITE_ERROR;
    faultsVFS.iVersion = 2;
    faultsVFS.szOsFile = (int)sizeof(FaultFile) + realVFS->szOsFile;
    faultsVFS.mxPathname = realVFS->mxPathname;
    faultsVFS.zName = "faults";
    faultsVFS.xOpen = vOpen;
    faultsVFS.xDelete = vDelete;
    faultsVFS.xAccess = vAccess;
    faultsVFS.xFullPathname = vFullPathname;
    faultsVFS.xDlOpen = vDlOpen;
    faultsVFS.xDlError = vDlError;
    faultsVFS.xDlSym = vDlSym;
    faultsVFS.xDlClose = vDlClose;
    faultsVFS.xRandomness = vRandomness;
    faultsVFS.xSleep = vSleep;
    faultsVFS.xCurrentTime = vCurrentTime;
    faultsVFS.xGetLastError = vGetLastError;
    faultsVFS.xCurrentTimeInt64 = vCurrentTimeInt64;
    return sqlite3_vfs_register(&faultsVFS, 0);
}
