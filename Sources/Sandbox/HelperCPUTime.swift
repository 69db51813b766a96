import Glibc
import PhotoFilerSystem

/// A helper's CPU time so far (user + system, all its threads), from
/// `/proc/PID/stat`: what its deadline is counted in, so that a helper starved by
/// a busy machine is not taken for one that loops on hostile bytes.
enum HelperCPUTime {
    private static let ticksPerSecond = Double(sysconf(CInt(_SC_CLK_TCK)))

    /// Seconds of CPU `pid` has used; nil when it cannot be read (the helper is gone).
    static func seconds(of pid: pid_t) -> Double? {
        let fd: FileDescriptor
        do {
            fd = try Sys.openForReading(BytePath("/proc/\(pid)/stat"))
        } catch {
            return nil
        }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { (bytes) throws(SystemError) in
                try fd.read(into: bytes)
            }
        } catch {
            return nil
        }
        // "pid (comm) state ppid …": the name may hold spaces and parentheses, so the
        // fields are counted from the last ')'. utime and stime are the 12th and 13th after it.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 12,
            let user = Double(String(decoding: fields[11], as: UTF8.self)),
            let system = Double(String(decoding: fields[12], as: UTF8.self))
        else { return nil }
        return (user + system) / ticksPerSecond
    }
}
