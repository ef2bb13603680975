#include <libpq-fe.h>

#include <sys/prctl.h>
#include <sys/resource.h>
// A helper holding a password makes no core dump (the password would be in it) and cannot be
// read through ptrace or /proc/PID/mem by another process of the same user.
static inline int tasks_refuse_core_dumps(void) {
    struct rlimit none = {0, 0};
    int limited = setrlimit(RLIMIT_CORE, &none);
    int undumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limited == 0 && undumpable == 0 ? 0 : -1;
}
