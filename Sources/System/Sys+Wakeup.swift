import CSystemShims
import Glibc

extension Sys {
    /// A descriptor through which one thread wakes another that waits in
    /// `waitForInput(on:orWakeup:)` (an `eventfd`); `FileDescriptor.signalWakeup()` wakes it.
    public static func makeWakeup() throws(SystemError) -> FileDescriptor {
        let fd = try checkCount("eventfd", nil) { Int(photofiler_wakeup_descriptor()) }
        return FileDescriptor(rawValue: CInt(fd))
    }

    /// Blocks until `descriptor` has input or `wakeup` was signalled; true when woken
    /// through `wakeup` (it stays signalled: every later wait returns at once).
    public static func waitForInput(on descriptor: FileDescriptor, orWakeup wakeup: FileDescriptor)
        throws(SystemError) -> Bool
    {
        var entries = [
            pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        _ = try checkCount("poll", nil) { Int(poll(&entries, 2, -1)) }
        return entries[1].revents != 0
    }
}

extension FileDescriptor {
    /// Wakes the thread that waits on this wakeup descriptor (`Sys.makeWakeup()`).
    /// Not a file write, so not a place for `FaultInjection`: a stop must always get through.
    public func signalWakeup() throws(SystemError) {
        var one: UInt64 = 1
        _ = try Sys.checkCount("write", nil) { Glibc.write(rawValue, &one, MemoryLayout<UInt64>.size) }
    }
}
