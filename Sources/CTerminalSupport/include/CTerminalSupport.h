#ifndef CTERMINALSUPPORT_H
#define CTERMINALSUPPORT_H

#include <termios.h>

/// Sends each of SIGWINCH, SIGTSTP, SIGCONT, SIGTERM, SIGHUP and SIGINT, as one byte holding
/// the signal's number, to `fd` (a non-blocking pipe the event loop watches). The handler
/// only calls write(2): async-signal-safe. Returns 0, or -1 with errno set.
int cterminal_install_signal_pipe(int fd);

/// Puts back the default action of `signo` (for SIGTSTP before the process stops itself).
void cterminal_default_signal(int signo);

/// The window's size in cells of the terminal on `fd`; 0 when it cannot be told.
int cterminal_window_size(int fd, unsigned short *rows, unsigned short *columns);

/// `attributes` made raw: no echo, no line editing, no signals from keys, no flow control,
/// no CR translation on input, output processing kept (so `\n` still returns the carriage).
void cterminal_make_raw(struct termios *attributes);

/// inotify: a non-blocking, close-on-exec instance watching `folder` for files written,
/// created, deleted or moved; -1 when the system has none.
int cterminal_watch_folder(const char *folder);

#endif
