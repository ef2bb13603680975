#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskCLI

// A closed pipe shows up as a failed write (EPIPE), which ends output quietly; a file-size
// limit as a failed write (EFBIG), which SQLite reports and the transaction rolls back.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
exit(TasksProgram.run(.process()))
