// What Swift cannot do safely itself: a signal handler (it must not touch the Swift runtime),
// and the termios and ioctl calls whose macros Swift does not import.

#include "CTerminalSupport.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <unistd.h>

static volatile int signal_pipe = -1;

static void forward_signal(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    if (signal_pipe >= 0) (void)!write(signal_pipe, &byte, 1);
    errno = saved;
}

int cterminal_install_signal_pipe(int fd) {
    signal_pipe = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    const int signals[] = {SIGWINCH, SIGTSTP, SIGCONT, SIGTERM, SIGHUP, SIGINT};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

void cterminal_default_signal(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signo, &action, NULL);
}

int cterminal_window_size(int fd, unsigned short *rows, unsigned short *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return 0;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 1;
}

void cterminal_make_raw(struct termios *attributes) {
    attributes->c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    attributes->c_cflag |= CS8;
    attributes->c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
    attributes->c_cc[VMIN] = 1;
    attributes->c_cc[VTIME] = 0;
}

int cterminal_watch_folder(const char *folder) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, folder, IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}
