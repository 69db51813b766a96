import Glibc
import PhotoFilerSystem

/// Ends the helper the moment the daemon's end of its socket closes, even while the
/// helper is deep in a parser that loops: a thread of its own waits for the hang-up.
///
/// Not PR_SET_PDEATHSIG: that fires when the *thread* that spawned the helper ends,
/// and the daemon spawns from dispatch worker threads, which come and go.
enum DaemonWatch {
    static func start(socket: FileDescriptor) throws(LockdownError) {
        var thread = pthread_t()
        let descriptor = UnsafeMutableRawPointer(bitPattern: Int(socket.rawValue) + 1)
        let result = pthread_create(
            &thread, nil,
            { argument in
                let fd = CInt(Int(bitPattern: argument) - 1)
                // Asks for nothing: POLLHUP comes by itself once the peer of a unix socket pair is closed.
                var watched = pollfd(fd: fd, events: 0, revents: 0)
                while true {
                    let ready = poll(&watched, 1, -1)
                    if ready == 1, watched.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { _exit(0) }
                    // A helper that cannot watch must not read: it could outlive the daemon.
                    if ready == -1, errno != EINTR { _exit(70) }
                }
            }, descriptor)
        guard result == 0 else { throw LockdownError(step: "pthread_create", code: result) }
        pthread_detach(thread)
    }
}
