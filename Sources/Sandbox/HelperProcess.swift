import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// One running helper: its pid and the daemon's end of its socket. Started with
/// `posix_spawn` (no fork of a threaded daemon), in a process group of its own (a
/// terminal's ^C or a group signal meant for the daemon does not reach it, and it
/// can be told apart in `ps`), with default signal handling and an empty signal
/// mask, its socket at descriptor 3 and stderr shared (a crash message lands in the
/// daemon's journal); the helper closes everything else, stdin and stdout too (no
/// /dev/null needed), and locks itself down before it reads anything (`HelperServer`).
package struct HelperProcess {
    package let pid: pid_t
    /// Non-blocking, close-on-exec.
    package let socket: FileDescriptor

    /// How a helper ended.
    package struct Ending {
        /// The signal that ended it, if one did.
        package var signal: CInt?
        package var exitStatus: CInt?
        /// Its peak resident memory.
        package var peakResidentBytes: Int

        /// "crashed (signal 11, SIGSEGV)", "ran out of memory" … for `MediaError.readerFailed`.
        package func describe(memoryLimit: Int) -> String {
            if peakResidentBytes >= memoryLimit / 2 {
                return "ran out of its \(memoryLimit >> 20) MiB of memory"
            }
            switch signal {
            case SIGXCPU?: return "ran out of CPU time"
            case let signal?:
                let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
                return "crashed (\(name))"
            case nil: return "stopped (exit status \(exitStatus ?? -1))"
            }
        }
    }

    /// Starts `executable __helper`.
    package static func spawn(_ executable: BytePath) throws(SystemError) -> HelperProcess {
        var (ours, theirs) = try Sys.messageSocketPair()
        defer { theirs.close() }
        if theirs.rawValue == HelperExecutable.socketDescriptor {
            // dup2 onto itself would keep close-on-exec set: move it first.
            let moved = try Sys.checkCount("fcntl", nil) {
                Int(fcntl(theirs.rawValue, F_DUPFD_CLOEXEC, CInt(10)))
            }
            theirs.close()
            theirs = FileDescriptor(rawValue: CInt(moved))
        }
        do {
            try Sys.setNonBlocking(ours)
            let pid = try launch(executable, socket: theirs)
            return HelperProcess(pid: pid, socket: ours)
        } catch {
            ours.close()
            throw error
        }
    }

    private static func launch(_ executable: BytePath, socket: FileDescriptor) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, socket.rawValue, HelperExecutable.socketDescriptor)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let arguments = [executable.bytes, Array(HelperExecutable.modeArgument.utf8)]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { bytes in
            bytes.withUnsafeBufferPointer { buffer in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: buffer.count + 1)
                buffer.withMemoryRebound(to: CChar.self) {
                    copy.initialize(from: $0.baseAddress!, count: $0.count)
                }
                copy[buffer.count] = 0
                return copy
            }
        }
        argv.append(nil)
        defer { for pointer in argv { pointer?.deallocate() } }
        var pid: pid_t = 0
        let noBacktrace = strdup("SWIFT_BACKTRACE=enable=no")
        defer { free(noBacktrace) }
        let tunables = strdup("GLIBC_TUNABLES=" + MallocTunables.value(before: MallocTunables.inherited))
        defer { free(tunables) }
        var environment = helperEnvironment(adding: [noBacktrace, tunables])
        let result = posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, &environment)
        guard result == 0 else {
            throw SystemError(Errno(rawValue: result), call: "posix_spawn", path: executable)
        }
        return pid
    }

    /// The daemon's environment without what belongs to it alone (systemd's notify
    /// socket and watchdog, inherited listening sockets, the crash points of the
    /// durability tests, its `GLIBC_TUNABLES`, which `extra` carries with
    /// `MallocTunables`' own), with `extra` first: the time zone (`TZ`) and
    /// locale still reach the helper, which reads dates in them. The entries are
    /// `environ`'s own, valid for the `posix_spawn` call.
    private static func helperEnvironment(adding extra: [UnsafeMutablePointer<CChar>?])
        -> [UnsafeMutablePointer<CChar>?]
    {
        let withheld = [
            "NOTIFY_SOCKET=", "WATCHDOG_", "LISTEN_", "SWIFT_BACKTRACE=", "PHOTOFILER_CRASH_AT=",
            "GLIBC_TUNABLES=",
        ]
        // Swift's crash backtracer runs a program of its own, which the filter forbids.
        var kept: [UnsafeMutablePointer<CChar>?] = extra
        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            if !withheld.contains(where: { text.hasPrefix($0) }) { kept.append(entry) }
        }
        kept.append(nil)
        return kept
    }

    /// Ends the helper at once (SIGKILL) if it has not ended, and reaps it.
    package func kill() -> Ending {
        _ = Glibc.kill(pid, SIGKILL)
        return reap(waiting: true)!
    }

    /// Reaps the helper once it has ended: nil while it runs (with `waiting`, blocks).
    package func reap(waiting: Bool) -> Ending? {
        var status: CInt = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, waiting ? 0 : WNOHANG, &usage)
            if result == pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            return Ending(signal: nil, exitStatus: nil, peakResidentBytes: 0)  // ECHILD: already reaped
        }
        let signal = status & 0x7f
        return Ending(
            signal: signal == 0 ? nil : signal, exitStatus: signal == 0 ? (status >> 8) & 0xff : nil,
            peakResidentBytes: Int(usage.ru_maxrss) * 1024)
    }

    /// Reaps a helper that has closed its socket: it is exiting, so give it a moment
    /// to finish before ending it for good (a helper that closed its socket and
    /// carries on is not waited for).
    package func reapAfterHangUp() -> Ending {
        for _ in 0..<50 {
            if let ending = reap(waiting: false) { return ending }
            usleep(1_000)
        }
        return kill()
    }
}
