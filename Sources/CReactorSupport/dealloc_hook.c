// A deallocation hook for Swift classes on platforms without Objective-C associated objects.
//
// Every Swift class's metadata is preceded by two words: the function that destroys an
// instance (its deallocating deinit, called by swift_release when the count reaches zero),
// then the value witness table, which for every native Swift class is the runtime's
// `$sBoWV` (Builtin.NativeObject). To hear of an instance's end, the destroy word of its
// class is replaced by `hooked`, which reports the object and then calls the original.
// The class metadata of a Swift program is writable data (the runtime itself writes to it
// while initializing classes); the layout is checked before anything is written.
//
// The destroy function uses the Swift calling convention with the object in the context
// register, hence clang's swiftcall and swift_context.

#include "CReactorSupport.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*destroyer)(void *object __attribute__((swift_context))) __attribute__((swiftcall));

extern const char swift_native_object_witnesses __asm__("$sBoWV");

enum { capacity = 4096 };
static void *hooked_metadata[capacity];
static destroyer originals[capacity];
static volatile int hooked_count;
static cdeallochook_callback report;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;

void cdeallochook_set_callback(cdeallochook_callback callback) { report = callback; }

__attribute__((swiftcall)) static void hooked(void *object __attribute__((swift_context))) {
    void *metadata = *(void **)object;
    destroyer original = NULL;
    int count = __atomic_load_n(&hooked_count, __ATOMIC_ACQUIRE);
    for (int index = 0; index < count; index++) {
        if (hooked_metadata[index] == metadata) {
            original = originals[index];
            break;
        }
    }
    if (report) report(object);
    // Every class whose destroy word is `hooked` was recorded first (see install).
    original(object);
}

int cdeallochook_install(void *metadata) {
    destroyer *slot = (destroyer *)((char *)metadata - 2 * sizeof(void *));
    const void *witnesses = *(const void **)((char *)metadata - sizeof(void *));
    if (witnesses != (const void *)&swift_native_object_witnesses) return 0;
    pthread_mutex_lock(&install_lock);
    int result = 1;
    if (*slot != hooked) {
        int count = hooked_count;
        if (count >= capacity || *slot == NULL) {
            result = 0;
        } else {
            hooked_metadata[count] = metadata;
            originals[count] = *slot;
            __atomic_store_n(&hooked_count, count + 1, __ATOMIC_RELEASE);
            __atomic_store_n(slot, hooked, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&install_lock);
    return result;
}
