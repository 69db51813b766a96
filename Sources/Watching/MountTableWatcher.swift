import Dispatch
import Foundation
import Glibc
import PhotoFilerSystem
import Synchronization

/// Tells when a disk is mounted or unmounted anywhere in the daemon's mount
/// namespace. inotify has no event for a mount: a disk mounted on a folder of the
/// library, or where an inbox is missing, shows its folders under paths whose
/// watches still sit on the folders it covers, and nothing it holds is seen.
///
/// The kernel marks `/proc/self/mountinfo` with `POLLPRI` when the mount table
/// changes (proc(5)); it always reads as ready, so a Dispatch read source would spin.
/// A thread of its own sleeps in `poll` instead: no CPU and no wake-up while no
/// disk comes or goes.
///
/// `@unchecked Sendable`: its stored properties are set in `init` and never change
/// (`queued` is atomic).
public final class MountTableWatcher: @unchecked Sendable {
    private let table: FileDescriptor
    private let queue: DispatchQueue
    private let handler: @Sendable () -> Void
    /// A run of `handler` is queued and has not started yet.
    private let queued = Atomic<Bool>(false)

    /// Starts watching; `handler` runs on `queue` after each change (changes that
    /// come while it is queued are told by its next run, once).
    public init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) throws(SystemError) {
        table = try Sys.open("/proc/self/mountinfo", flags: O_RDONLY | O_CLOEXEC)
        self.queue = queue
        self.handler = handler
        let thread = Thread { [self] in waitForChanges() }
        thread.name = "photofiler.mounts"
        thread.start()
    }

    /// Runs for the life of the process (the daemon exits without stopping it).
    private func waitForChanges() {
        while true {
            do {
                try table.waitForPriorityEvent()
            } catch {
                return  // poll fails only for a bad descriptor, and this one stays open
            }
            if queued.exchange(true, ordering: .acquiringAndReleasing) { continue }
            queue.async { [self] in
                queued.store(false, ordering: .releasing)
                handler()
            }
        }
    }
}
