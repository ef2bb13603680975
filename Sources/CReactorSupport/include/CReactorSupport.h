#ifndef CREACTORSUPPORT_H
#define CREACTORSUPPORT_H

/// Called with the address of an object of a hooked class, just before it is destroyed
/// (its deinit has not run yet; it must not be retained).
typedef void (*cdeallochook_callback)(void *object);

/// Sets the one callback every hooked class reports to. Call it before the first install.
void cdeallochook_set_callback(cdeallochook_callback callback);

/// Makes the instances of the Swift class whose metadata is `metadata` report to the callback
/// before they are destroyed. Returns 1 when the class reports (now or already), 0 when its
/// metadata does not have the layout this hook knows (then nothing was changed).
int cdeallochook_install(void *metadata);

/// Whether the calling thread is the process's main thread (the one that ran `main`).
int creactorsupport_is_main_thread(void);

#endif
