#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskCLI

// A closed pipe shows up as a failed write (EPIPE), which ends output quietly.
signal(SIGPIPE, SIG_IGN)
exit(TasksProgram.run(.process()))
