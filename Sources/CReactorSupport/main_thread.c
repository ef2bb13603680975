// Which thread is the main one: recorded while the program loads, before `main` runs, on
// the thread that will run it. (Glibc's gettid is not visible to Swift.)

#include "CReactorSupport.h"
#include <pthread.h>

static pthread_t main_thread;

__attribute__((constructor)) static void record_main_thread(void) { main_thread = pthread_self(); }

int creactorsupport_is_main_thread(void) { return pthread_equal(pthread_self(), main_thread); }
